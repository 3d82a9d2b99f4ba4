import { useI18n } from '../../i18n';

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
