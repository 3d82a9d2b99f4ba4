import { BACKOFFICE_MENU } from '@broker/contracts/permissions';
import type { TRouteOutput } from '@broker/contracts/routes';
import { type DragEvent, useEffect, useMemo, useState } from 'react';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { useDocumentTitle, useI18n } from '../../i18n';
import { ConfirmDialog } from '../../kit/Modal';
import { useMutation, useQuery } from '../../kit/useApi';
import { useSession } from '../../session';
import { useFailureText } from './ui';

interface TDraftSection {
  id: string;
  title: string;
  keys: string[];
}

interface TDraft {
  sections: TDraftSection[];
  hidden: string[];
}

/** The menus page itself stays visible so it can always be found again. */
const UNHIDEABLE = 'menus';
let nextSectionId = 0;
const sectionId = () => `section-${++nextSectionId}`;

const toDraft = (layout: TRouteOutput<'adminmenuget'>): TDraft => ({
  sections: layout.sections.map((s) => ({ id: sectionId(), title: s.title ?? '', keys: [...s.keys] })),
  hidden: [...layout.hidden],
});

/** Moves one entry to a section at a position (both after removing it from where it was). */
export function moveEntry(draft: TDraft, key: string, toSection: number, toIndex: number): TDraft {
  const sections = draft.sections.map((s) => ({ ...s, keys: s.keys.filter((k) => k !== key) }));
  const target = sections[toSection];
  if (!target) return draft;
  target.keys.splice(Math.max(0, Math.min(toIndex, target.keys.length)), 0, key);
  return { ...draft, sections };
}

/** One step up or down; past the edge of a section the entry joins the neighbouring section. */
export function stepEntry(draft: TDraft, key: string, direction: -1 | 1): TDraft {
  const from = draft.sections.findIndex((s) => s.keys.includes(key));
  const section = draft.sections[from];
  if (!section) return draft;
  const index = section.keys.indexOf(key);
  const next = index + direction;
  if (next >= 0 && next < section.keys.length) return moveEntry(draft, key, from, next);
  const neighbour = from + direction;
  const target = draft.sections[neighbour];
  if (!target) return draft;
  return moveEntry(draft, key, neighbour, direction === -1 ? target.keys.length : 0);
}

/** /admin/menus: the broker arranges the side menu for everyone — sections, order, hidden entries. */
export function MenusPage() {
  const { t } = useI18n();
  const { can, refresh } = useSession();
  const failure = useFailureText();
  useDocumentTitle(t('admin.menu.menus'));
  const layout = useQuery('adminmenuget', {});
  const save = useMutation('adminmenusave');
  const [draft, setDraft] = useState<TDraft | null>(null);
  const [confirming, setConfirming] = useState<'save' | 'reset' | null>(null);
  const [dragging, setDragging] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const mayEdit = can('menus.edit');

  useEffect(() => {
    if (layout.data) setDraft(toDraft(layout.data));
  }, [layout.data]);

  const saved = useMemo(
    () => (layout.data ? JSON.stringify(toPayload(toDraft(layout.data))) : ''),
    [layout.data],
  );
  const changed = draft ? JSON.stringify(toPayload(draft)) !== saved : false;
  const entry = (key: string) => BACKOFFICE_MENU.find((m) => m.key === key);

  const update = (next: TDraft) => {
    setNotice(null);
    setDraft(next);
  };

  const onDrop = (event: DragEvent, toSection: number, toIndex: number) => {
    event.preventDefault();
    const key = event.dataTransfer.getData('text/plain') || dragging;
    setDragging(null);
    if (draft && key) update(moveEntry(draft, key, toSection, toIndex));
  };

  const persist = async (payload: ReturnType<typeof toPayload>) => {
    const answer = await save.run(payload);
    if (!answer) return;
    setConfirming(null);
    setNotice(t('admin.access.menus.saved'));
    layout.reload();
    await refresh();
  };

  const productOrder = (): ReturnType<typeof toPayload> => ({
    sections: [{ title: null, keys: layout.data?.entries ?? [] }],
    hidden: [],
  });

  return (
    <div className="bo-page" data-testid="menus-page">
      <PageHeader
        title={t('admin.menu.menus')}
        description={t('admin.module.menus.description')}
        actions={
          mayEdit && draft ? (
            <div className="kit-actions">
              <button type="button" className="btn btn-secondary" onClick={() => setConfirming('reset')}>
                {t('admin.access.menus.reset')}
              </button>
              <button
                type="button"
                className="btn btn-secondary"
                disabled={!changed}
                onClick={() => layout.data && update(toDraft(layout.data))}
              >
                {t('admin.access.menus.discard')}
              </button>
              <button
                type="button"
                className="btn btn-primary"
                disabled={!changed || save.pending}
                onClick={() => setConfirming('save')}
                data-testid="menus-save"
              >
                {t('admin.access.save')}
              </button>
            </div>
          ) : null
        }
      />
      {notice ? (
        <div className="alert alert-info bo-alert" role="status">
          <Icon name="check" size={16} className="bo-alert-icon" />
          <span>{notice}</span>
        </div>
      ) : null}
      {layout.status === 'error' ? (
        <div className="card kit-table-error" role="alert">
          <Icon name="alert" size={16} />
          <span>{failure(layout.error)}</span>
          <button type="button" className="btn btn-secondary btn-sm" onClick={layout.reload}>
            {t('admin.kit.retry')}
          </button>
        </div>
      ) : null}
      {!draft && layout.status === 'loading' ? (
        <div className="card ac-skeleton-card" aria-busy="true" />
      ) : null}
      {draft ? (
        <div className="ac-menus">
          <div className="ac-menus-editor">
            <p className="kit-hint">
              {mayEdit ? t('admin.access.menus.help') : t('admin.access.menus.readOnly')}
            </p>
            {draft.sections.map((section, sIndex) => (
              <section
                key={section.id}
                className="card ac-menu-section"
                aria-label={section.title || t('admin.access.menus.untitled')}
                onDragOver={(e) => mayEdit && e.preventDefault()}
                onDrop={(e) => mayEdit && onDrop(e, sIndex, section.keys.length)}
                data-testid="menu-section"
              >
                <header className="ac-menu-section-head">
                  <input
                    className="input"
                    value={section.title}
                    maxLength={40}
                    disabled={!mayEdit}
                    placeholder={t('admin.access.menus.noHeading')}
                    aria-label={t('admin.access.menus.heading')}
                    onChange={(e) =>
                      update({
                        ...draft,
                        sections: draft.sections.map((s) =>
                          s.id === section.id ? { ...s, title: e.target.value } : s,
                        ),
                      })
                    }
                  />
                  {mayEdit ? (
                    <div className="ac-move">
                      <button
                        type="button"
                        className="bo-iconbtn"
                        disabled={sIndex === 0}
                        aria-label={t('admin.access.menus.sectionUp')}
                        title={t('admin.access.menus.sectionUp')}
                        onClick={() =>
                          update({ ...draft, sections: swap(draft.sections, sIndex, sIndex - 1) })
                        }
                      >
                        <Icon name="chevronDown" size={14} className="ac-up" />
                      </button>
                      <button
                        type="button"
                        className="bo-iconbtn"
                        disabled={sIndex === draft.sections.length - 1}
                        aria-label={t('admin.access.menus.sectionDown')}
                        title={t('admin.access.menus.sectionDown')}
                        onClick={() =>
                          update({ ...draft, sections: swap(draft.sections, sIndex, sIndex + 1) })
                        }
                      >
                        <Icon name="chevronDown" size={14} />
                      </button>
                      <button
                        type="button"
                        className="bo-iconbtn"
                        disabled={draft.sections.length === 1}
                        aria-label={t('admin.access.menus.removeSection')}
                        title={t('admin.access.menus.removeSectionHint')}
                        onClick={() => update(removeSection(draft, sIndex))}
                      >
                        <Icon name="close" size={14} />
                      </button>
                    </div>
                  ) : null}
                </header>
                <ul className="ac-menu-entries">
                  {section.keys.map((key, index) => {
                    const item = entry(key);
                    const hidden = draft.hidden.includes(key);
                    const label = t(`admin.menu.${key}`);
                    return (
                      <li
                        key={key}
                        className={`ac-menu-entry${hidden ? ' ac-hidden' : ''}${dragging === key ? ' ac-dragging' : ''}`}
                        draggable={mayEdit}
                        onDragStart={(e) => {
                          e.dataTransfer.setData('text/plain', key);
                          e.dataTransfer.effectAllowed = 'move';
                          setDragging(key);
                        }}
                        onDragEnd={() => setDragging(null)}
                        onDragOver={(e) => mayEdit && e.preventDefault()}
                        onDrop={(e) => {
                          e.stopPropagation();
                          if (mayEdit) onDrop(e, sIndex, index);
                        }}
                        data-testid="menu-entry"
                        data-key={key}
                      >
                        {mayEdit ? <span className="ac-grip" aria-hidden="true" /> : null}
                        <Icon name={item?.icon ?? 'menu'} size={16} />
                        <span className="ac-menu-label">{label}</span>
                        {item?.platform ? (
                          <span className="kit-pill">{t('admin.access.roles.platformOnly')}</span>
                        ) : null}
                        <label className="kit-check ac-menu-visible">
                          <input
                            type="checkbox"
                            checked={!hidden}
                            disabled={!mayEdit || key === UNHIDEABLE}
                            onChange={(e) =>
                              update({
                                ...draft,
                                hidden: e.target.checked
                                  ? draft.hidden.filter((k) => k !== key)
                                  : [...draft.hidden, key],
                              })
                            }
                            aria-label={t('admin.access.menus.showEntry', { name: label })}
                          />
                          <span>{t('admin.access.menus.visible')}</span>
                        </label>
                        {mayEdit ? (
                          <div className="ac-move">
                            <button
                              type="button"
                              className="bo-iconbtn"
                              disabled={sIndex === 0 && index === 0}
                              aria-label={t('admin.access.menus.up', { name: label })}
                              title={t('admin.access.menus.up', { name: label })}
                              onClick={() => update(stepEntry(draft, key, -1))}
                            >
                              <Icon name="chevronDown" size={14} className="ac-up" />
                            </button>
                            <button
                              type="button"
                              className="bo-iconbtn"
                              disabled={
                                sIndex === draft.sections.length - 1 && index === section.keys.length - 1
                              }
                              aria-label={t('admin.access.menus.down', { name: label })}
                              title={t('admin.access.menus.down', { name: label })}
                              onClick={() => update(stepEntry(draft, key, 1))}
                            >
                              <Icon name="chevronDown" size={14} />
                            </button>
                          </div>
                        ) : null}
                      </li>
                    );
                  })}
                  {section.keys.length === 0 ? (
                    <li className="ac-menu-empty">{t('admin.access.menus.emptySection')}</li>
                  ) : null}
                </ul>
              </section>
            ))}
            {mayEdit ? (
              <button
                type="button"
                className="btn btn-secondary"
                disabled={draft.sections.length >= 20}
                onClick={() =>
                  update({
                    ...draft,
                    sections: [...draft.sections, { id: sectionId(), title: '', keys: [] }],
                  })
                }
              >
                {t('admin.access.menus.addSection')}
              </button>
            ) : null}
          </div>
          <aside className="card ac-menu-preview" aria-label={t('admin.access.menus.preview')}>
            <h2>{t('admin.access.menus.preview')}</h2>
            <p className="kit-hint">{t('admin.access.menus.previewHint')}</p>
            {draft.sections.map((section) => {
              const keys = section.keys.filter((k) => !draft.hidden.includes(k));
              if (keys.length === 0) return null;
              return (
                <div key={section.id} className="ac-preview-group">
                  {section.title.trim() ? <h3>{section.title.trim()}</h3> : null}
                  <ul>
                    {keys.map((key) => (
                      <li key={key}>
                        <Icon name={entry(key)?.icon ?? 'menu'} size={15} />
                        {t(`admin.menu.${key}`)}
                      </li>
                    ))}
                  </ul>
                </div>
              );
            })}
          </aside>
        </div>
      ) : null}
      {confirming && draft ? (
        <ConfirmDialog
          title={
            confirming === 'save' ? t('admin.access.menus.confirmSave') : t('admin.access.menus.confirmReset')
          }
          message={
            confirming === 'save'
              ? t('admin.access.menus.confirmSaveText')
              : t('admin.access.menus.confirmResetText')
          }
          pending={save.pending}
          error={failure(save.error)}
          onConfirm={() => persist(confirming === 'save' ? toPayload(draft) : productOrder())}
          onCancel={() => setConfirming(null)}
        />
      ) : null}
    </div>
  );
}

function toPayload(draft: TDraft) {
  return {
    sections: draft.sections.map((s) => ({ title: s.title.trim() ? s.title.trim() : null, keys: s.keys })),
    hidden: draft.hidden,
  };
}

function swap<T>(list: readonly T[], a: number, b: number): T[] {
  const next = [...list];
  const first = next[a];
  const second = next[b];
  if (first === undefined || second === undefined) return next;
  next[a] = second;
  next[b] = first;
  return next;
}

/** Removes a section; its entries join the section before it (or after it, for the first). */
function removeSection(draft: TDraft, index: number): TDraft {
  const removed = draft.sections[index];
  if (!removed || draft.sections.length === 1) return draft;
  const sections = draft.sections.filter((_, i) => i !== index).map((s) => ({ ...s }));
  const target = sections[Math.max(0, index - 1)];
  if (target)
    target.keys = index === 0 ? [...removed.keys, ...target.keys] : [...target.keys, ...removed.keys];
  return { ...draft, sections };
}
