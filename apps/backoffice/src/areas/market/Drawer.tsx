import { type ReactNode, useEffect, useId, useRef } from 'react';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../i18n';

/**
 * A panel from the right edge for a long form (the whole width on a phone). Escape and the close
 * button call `onClose`; focus moves in when it opens and back when it closes.
 */
export function Drawer({
  title,
  subtitle,
  children,
  footer,
  onClose,
  testId,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  onClose: () => void;
  testId?: string;
}) {
  const { t } = useI18n();
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    box.current?.querySelector<HTMLElement>('input:not([disabled]), select, textarea, button')?.focus();
    const onKey = (event: KeyboardEvent) => {
      // A dialog opened over the drawer handles its own Escape.
      if (event.key === 'Escape' && !document.querySelector('.kit-backdrop')) close.current();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus?.();
    };
  }, []);
  return (
    <div className="mk-drawer-backdrop">
      <button type="button" className="mk-drawer-scrim" aria-label={t('admin.kit.close')} onClick={onClose} />
      <div
        ref={box}
        className="mk-drawer"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid={testId}
      >
        <header className="mk-drawer-head">
          <div className="mk-drawer-title">
            <h2 id={titleId}>{title}</h2>
            {subtitle ? <div className="mk-drawer-sub">{subtitle}</div> : null}
          </div>
          <button type="button" className="bo-iconbtn" onClick={onClose} aria-label={t('admin.kit.close')}>
            <Icon name="close" size={16} />
          </button>
        </header>
        <div className="mk-drawer-body">{children}</div>
        {footer ? <footer className="mk-drawer-foot">{footer}</footer> : null}
      </div>
    </div>
  );
}

/** Why an editor drawer did not go on to review: nothing changed, a field is wrong, or someone saved first. */
export type TEditNotice = 'unchanged' | 'invalid' | 'stale' | null;

/** The footer of an editor drawer: the notice, Cancel (Close when read-only) and Review. */
export function EditorFooter({
  notice,
  noticeText,
  canEdit,
  onReload,
  onClose,
  onReview,
  reviewTestId,
}: {
  notice: TEditNotice;
  /** The server's own words for an 'invalid' notice when they say more (which group clashes). */
  noticeText?: string | null;
  canEdit: boolean;
  onReload: () => void;
  onClose: () => void;
  onReview: () => void;
  reviewTestId: string;
}) {
  const { t } = useI18n();
  return (
    <>
      {notice ? (
        <span className={`mk-foot-note${notice === 'unchanged' ? '' : ' mk-foot-warn'}`} role="status">
          {notice === 'stale' ? (
            <>
              {t('admin.market.edit.stale')}{' '}
              <button type="button" className="btn btn-secondary btn-sm" onClick={onReload}>
                {t('admin.market.edit.reload')}
              </button>
            </>
          ) : notice === 'invalid' && noticeText ? (
            noticeText
          ) : (
            t(notice === 'unchanged' ? 'admin.market.edit.unchanged' : 'admin.market.edit.invalid')
          )}
        </span>
      ) : null}
      <button type="button" className="btn btn-secondary" onClick={onClose}>
        {canEdit ? t('admin.kit.cancel') : t('admin.kit.close')}
      </button>
      {canEdit ? (
        <button type="button" className="btn btn-primary" onClick={onReview} data-testid={reviewTestId}>
          {t('admin.market.edit.review')}
        </button>
      ) : null}
    </>
  );
}
