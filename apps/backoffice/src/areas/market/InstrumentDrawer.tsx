import type { TMarketInstrument, TMarketQuote } from '@broker/contracts/admin/market-routes';
import type { TRouteOutput } from '@broker/contracts/routes';
import {
  changedKeys,
  mergeOverrides,
  type TInstrumentConfig,
  validateInstrumentConfig,
} from '@broker/domain/market/market-config';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { callApi } from '../../api';
import { useI18n } from '../../i18n';
import { Drawer } from '../../kit/Drawer';
import { Field } from '../../kit/Field';
import { ConfirmDialog } from '../../kit/Modal';
import { ApiError } from '../../lib/api';
import { useSession } from '../../session';
import { ChangeList } from './ChangeList';
import { EditorFooter, type TEditNotice } from './EditorFooter';
import { problemAt, readInstrumentForm, type TInstrumentForm, type TProblems, toForm } from './form';
import { CATEGORY_LABEL, FIELD_LABEL, formatDecimal, PROBLEM_TEXT } from './format';
import { SessionsEditor } from './SessionsEditor';
import { TiersEditor } from './TiersEditor';

type TSaved = TRouteOutput<'adminmarketinstrumentsave'>;

/** Field problems: the rules' own (translated here), a clash with a group, or the server's text. */
export interface TFieldErrors {
  problems: TProblems;
  /** Field -> the group whose overrides the new value would break. */
  clashes: Record<string, string>;
  server: Record<string, string>;
}

export function Section({ title, children, id }: { title: string; children: ReactNode; id: string }) {
  return (
    <section className="mk-section" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}

/** The edit panel of one instrument: grouped fields, rules checked as the server does, diff before save. */
export function InstrumentDrawer({
  instrument,
  quote,
  onClose,
  onSaved,
  onReload,
}: {
  instrument: TMarketInstrument;
  quote: TMarketQuote | undefined;
  onClose: () => void;
  onSaved: (answer: TSaved) => void;
  onReload: () => void;
}) {
  const { t, intl, formatNumber } = useI18n();
  const { can } = useSession();
  const canEdit = can('market.edit');
  const [form, setForm] = useState<TInstrumentForm>(() => toForm(instrument.config));
  const [errors, setErrors] = useState<TFieldErrors>({ problems: {}, clashes: {}, server: {} });
  const [review, setReview] = useState<TInstrumentConfig | null>(null);
  const [notice, setNotice] = useState<TEditNotice>(null);
  const [clash, setClash] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const update = (change: Partial<TInstrumentForm>) => {
    setForm((f) => ({ ...f, ...change }));
    setNotice(null);
    setClash(null);
  };
  const cap = form.maxLeverage.trim() === '' ? instrument.defaultLeverage : Number(form.maxLeverage);

  const errorOf = (path: string): string | undefined => {
    const problem = problemAt(errors.problems, path);
    if (problem) return t(PROBLEM_TEXT[problem], { cap });
    const group = errors.clashes[path];
    if (group) return t('admin.market.problems.groupClash', { group });
    return errors.server[path];
  };

  const submit = () => {
    setClash(null);
    const { config, problems } = readInstrumentForm(form, instrument.defaultLeverage);
    const clashes: Record<string, string> = {};
    if (Object.keys(problems).length === 0)
      for (const group of instrument.groups) {
        const merged = validateInstrumentConfig(mergeOverrides(config, group.overrides), {
          defaultLeverage: instrument.defaultLeverage,
        });
        for (const path of Object.keys(merged)) clashes[path.split('.')[0] as string] ??= group.groupName;
      }
    setErrors({ problems, clashes, server: {} });
    if (Object.keys(problems).length > 0 || Object.keys(clashes).length > 0) {
      setNotice('invalid');
      return;
    }
    if (changedKeys(instrument.config, config).length === 0) {
      setNotice('unchanged');
      return;
    }
    setConfirmError(null);
    setReview(config);
  };

  const confirm = async () => {
    if (!review) return;
    setPending(true);
    setConfirmError(null);
    try {
      const answer = await callApi('adminmarketinstrumentsave', {
        symbol: instrument.symbol,
        version: instrument.version,
        config: review,
      });
      onSaved(answer);
    } catch (error) {
      const apiError = error instanceof ApiError ? error : new ApiError('http', String(error));
      if (apiError.errorCode === -6013) {
        setReview(null);
        setErrors({ problems: {}, clashes: {}, server: apiError.fields });
        setNotice('invalid');
        setClash(apiError.messageKey === 'errors.-6013.groupClash' ? apiError.message : null);
      } else if (apiError.errorCode === -6017) {
        setReview(null);
        setNotice('stale');
      } else setConfirmError(apiError.message);
    } finally {
      setPending(false);
    }
  };

  const markup = Number.isInteger(Number(form.markupPoints)) ? Number(form.markupPoints) : 0;
  const text = (
    name: keyof TInstrumentForm & string,
    options: { hint?: ReactNode; mode?: 'decimal' | 'numeric'; placeholder?: string; suffix?: string } = {},
  ) => (
    <Field label={t(FIELD_LABEL[name] ?? name)} error={errorOf(name)} hint={options.hint}>
      {(props) => (
        <span className="mk-input-wrap">
          <input
            {...props}
            className="input"
            name={name}
            inputMode={options.mode ?? 'decimal'}
            placeholder={options.placeholder}
            disabled={!canEdit}
            value={form[name] as string}
            onChange={(e) => update({ [name]: e.target.value } as Partial<TInstrumentForm>)}
          />
          {options.suffix ? <span className="mk-suffix">{options.suffix}</span> : null}
        </span>
      )}
    </Field>
  );
  const check = (name: 'enabled' | 'closeOnly' | 'shortAllowed', hint: string) => (
    <label className="kit-check mk-check">
      <input
        type="checkbox"
        name={name}
        checked={form[name]}
        disabled={!canEdit}
        onChange={(e) => update({ [name]: e.target.checked } as Partial<TInstrumentForm>)}
      />
      <span>
        <span className="mk-check-label">{t(FIELD_LABEL[name] ?? name)}</span>
        <span className="kit-hint">{hint}</span>
      </span>
    </label>
  );

  return (
    <Drawer
      className="mk-drawer"
      focusFirstField
      testId="instrument-drawer"
      title={
        <>
          {instrument.symbol}
          <span className="kit-pill">{t(CATEGORY_LABEL[instrument.category] ?? instrument.category)}</span>
        </>
      }
      subtitle={
        <span className="mk-drawer-facts">
          <span>
            {t('admin.market.edit.facts', {
              base: instrument.base,
              quote: instrument.quote,
              digits: instrument.digits,
              contract: formatDecimal(intl, instrument.contractSize),
            })}
          </span>
          <span>
            {t('admin.market.edit.updated', {
              time: new Intl.DateTimeFormat(intl, { dateStyle: 'medium', timeStyle: 'short' }).format(
                new Date(instrument.updatedAt),
              ),
            })}
          </span>
          {quote ? (
            <span className="mk-drawer-quote" data-testid="drawer-quote">
              {t('admin.market.edit.quote', {
                bid: formatDecimal(intl, quote.bid, quote.digits),
                ask: formatDecimal(intl, quote.ask, quote.digits),
                spread: formatNumber(quote.spread),
              })}
            </span>
          ) : null}
        </span>
      }
      onClose={onClose}
      footer={
        <EditorFooter
          notice={notice}
          noticeText={clash}
          canEdit={canEdit}
          onReload={onReload}
          onClose={onClose}
          onReview={submit}
          reviewTestId="instrument-review"
        />
      }
    >
      {!canEdit ? <p className="mk-readonly">{t('admin.market.edit.readOnly')}</p> : null}
      <Section id="mk-sec-trading" title={t('admin.market.edit.trading')}>
        <div className="mk-checks">
          {check('enabled', t('admin.market.edit.enabledHint'))}
          {check('closeOnly', t('admin.market.edit.closeOnlyHint'))}
          {check('shortAllowed', t('admin.market.edit.shortAllowedHint'))}
        </div>
        <div className="kit-form-grid">
          {text('markupPoints', {
            mode: 'numeric',
            suffix: t('admin.market.unit.points'),
            hint: quote
              ? t('admin.market.edit.markupLive', {
                  feed: formatNumber(quote.spread),
                  client: formatNumber(quote.spread + markup),
                })
              : t('admin.market.edit.markupHint'),
          })}
          {text('stopsLevelPoints', {
            mode: 'numeric',
            suffix: t('admin.market.unit.points'),
            hint: t('admin.market.edit.stopsHint'),
          })}
        </div>
      </Section>
      <Section id="mk-sec-volumes" title={t('admin.market.edit.volumes')}>
        <div className="kit-form-grid mk-grid-3">
          {text('minVolume', { suffix: t('admin.market.unit.lots') })}
          {text('volumeStep', { suffix: t('admin.market.unit.lots') })}
          {text('maxVolume', { suffix: t('admin.market.unit.lots') })}
        </div>
        <p className="kit-hint">{t('admin.market.edit.volumesHint')}</p>
      </Section>
      <Section id="mk-sec-leverage" title={t('admin.market.edit.leverage')}>
        <div className="kit-form-grid">
          {text('maxLeverage', {
            mode: 'numeric',
            placeholder: t('admin.market.edit.leverageDefault', { leverage: instrument.defaultLeverage }),
            hint: t('admin.market.edit.leverageHint', { leverage: instrument.defaultLeverage }),
          })}
        </div>
        <TiersEditor
          tiers={form.tiers}
          onChange={(tiers) => update({ tiers })}
          problems={errors.problems}
          cap={Number.isFinite(cap) ? cap : null}
          disabled={!canEdit}
        />
      </Section>
      <Section id="mk-sec-sessions" title={t('admin.market.edit.sessions')}>
        <SessionsEditor
          days={form.days}
          onChange={(days) => update({ days })}
          problems={errors.problems}
          weekProblem={
            errors.problems.sessions
              ? t(PROBLEM_TEXT[errors.problems.sessions])
              : (errorOf('sessions') ?? undefined)
          }
          disabled={!canEdit}
        />
      </Section>
      <Section id="mk-sec-swaps" title={t('admin.market.edit.swaps')}>
        <div className="kit-form-grid mk-grid-3">
          {text('swapLong', { suffix: t('admin.market.unit.points') })}
          {text('swapShort', { suffix: t('admin.market.unit.points') })}
          {text('commissionPerLot', { suffix: t('admin.market.unit.perLot') })}
        </div>
        <p className="kit-hint">{t('admin.market.edit.swapsHint')}</p>
      </Section>
      {instrument.groups.length > 0 ? (
        <Section id="mk-sec-groups" title={t('admin.market.edit.groups')}>
          <ul className="mk-group-overrides">
            {instrument.groups.map((g) => (
              <li key={g.groupId}>
                <Link to={`/market/groups/${g.groupId}`}>{g.groupName}</Link>
                <span className="kit-hint">
                  {Object.keys(g.overrides)
                    .map((key) => t(FIELD_LABEL[key] ?? key))
                    .join(' · ')}
                </span>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
      {review ? (
        <ConfirmDialog
          title={t('admin.market.edit.confirmTitle', { symbol: instrument.symbol })}
          message={t('admin.market.edit.confirmText')}
          confirmLabel={t('admin.market.edit.save')}
          pending={pending}
          error={confirmError}
          onConfirm={confirm}
          onCancel={() => setReview(null)}
        >
          <ChangeList
            before={instrument.config}
            after={review}
            defaultLeverage={instrument.defaultLeverage}
            testId="instrument-changes"
          />
        </ConfirmDialog>
      ) : null}
    </Drawer>
  );
}
