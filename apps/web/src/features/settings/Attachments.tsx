import { useId } from 'react';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../lib/i18n';
import { MAX_IMAGES, MAX_VIDEOS } from './feedback-form';
import { ACCEPT } from './upload';
import type { TAttachment, TAttachments } from './useAttachments';

/** Thumbnails of the attached images and video with their upload state, and the tile that adds more. */
export function Attachments({ attachments, disabled }: { attachments: TAttachments; disabled: boolean }) {
  const { t } = useI18n();
  const hintId = useId();
  const full = attachments.counts.images >= MAX_IMAGES && attachments.counts.videos >= MAX_VIDEOS;
  return (
    <div className="pf-attachments" data-testid="attachments">
      <ul className="pf-tiles">
        {attachments.items.map((item) => (
          <AttachmentTile
            key={item.key}
            item={item}
            onRemove={() => attachments.remove(item.key)}
            onRetry={() => attachments.retry(item.key)}
          />
        ))}
        {!full && (
          <li>
            <label className="pf-tile pf-tile-add" data-disabled={disabled}>
              <input
                type="file"
                multiple
                accept={ACCEPT.feedback}
                className="st-sr-only"
                disabled={disabled}
                aria-describedby={hintId}
                data-testid="attachment-input"
                onChange={(event) => {
                  const chosen = [...(event.target.files ?? [])];
                  event.target.value = '';
                  if (chosen.length) attachments.add(chosen);
                }}
              />
              <Icon name="plus" size={22} />
              <span>{t('feedback.attach.add')}</span>
            </label>
          </li>
        )}
      </ul>
      <span className="pf-hint" id={hintId}>
        {t('feedback.attach.hint', {
          images: attachments.counts.images,
          maxImages: MAX_IMAGES,
          videos: attachments.counts.videos,
          maxVideos: MAX_VIDEOS,
        })}
      </span>
      {attachments.refused.length > 0 && (
        <div className="alert alert-error st-alert" role="alert" data-testid="attachments-refused">
          <ul className="pf-refused">
            {attachments.refused.map((r, i) => (
              <li key={i}>
                <strong>{r.name}</strong> <span>{r.reason}</span>
              </li>
            ))}
          </ul>
          <button
            type="button"
            className="icon-button"
            aria-label={t('common.close')}
            onClick={attachments.dismissRefused}
          >
            <Icon name="close" size={16} />
          </button>
        </div>
      )}
    </div>
  );
}

function AttachmentTile({
  item,
  onRemove,
  onRetry,
}: {
  item: TAttachment;
  onRemove(): void;
  onRetry(): void;
}) {
  const { t, formatNumber } = useI18n();
  const percent = Math.round(item.progress * 100);
  return (
    <li
      className="pf-tile"
      data-testid="attachment"
      data-status={item.status}
      data-kind={item.kind}
      title={item.name}
    >
      {item.kind === 'image' ? (
        <img className="pf-tile-media" src={item.preview} alt={item.name} />
      ) : (
        <>
          {/* The first frame as the thumbnail; AVI does not play in browsers, its icon stays. */}
          <video className="pf-tile-media" src={item.preview} preload="metadata" muted playsInline />
          <span className="pf-tile-badge">
            <Icon name="platform" size={12} />
            {t('feedback.attach.video')}
          </span>
        </>
      )}
      {item.status === 'uploading' && (
        <span className="pf-tile-veil">
          <span
            className="pf-progress"
            role="progressbar"
            aria-label={t('profile.upload.progress')}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
          >
            <span style={{ width: `${percent}%` }} />
          </span>
          <span className="pf-tile-percent num">{formatNumber(item.progress, { style: 'percent' })}</span>
        </span>
      )}
      {item.status === 'failed' && (
        <span className="pf-tile-veil pf-tile-failed" data-testid="attachment-error">
          <span className="pf-tile-error">{item.error}</span>
          <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry}>
            {t('common.retry')}
          </button>
        </span>
      )}
      {item.status === 'done' && (
        <span className="pf-tile-done" role="img" aria-label={t('feedback.attach.uploaded')}>
          <Icon name="check" size={12} />
        </span>
      )}
      <button
        type="button"
        className="pf-tile-remove"
        aria-label={t('feedback.attach.remove', { name: item.name })}
        data-testid="attachment-remove"
        onClick={onRemove}
      >
        <Icon name="close" size={14} />
      </button>
    </li>
  );
}
