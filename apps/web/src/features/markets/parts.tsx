import { Icon } from '../../components/Icon';
import { StreamBadge } from '../../components/StreamBadge';
import { useI18n } from '../../lib/i18n';
import { useStreamHealth, useStreamState } from '../../lib/market-stream';

/** Connection state of the price stream: live, connecting, reconnecting or offline. */
export function StreamStatus() {
  const state = useStreamState();
  const { health } = useStreamHealth();
  return <StreamBadge health={health} state={state} />;
}

export function ClosedBadge({ className = '' }: { className?: string }) {
  const { t } = useI18n();
  return (
    <span className={`mk-badge-closed${className ? ` ${className}` : ''}`} data-testid="closed-badge">
      {t('markets.status.closed')}
    </span>
  );
}

export function ErrorCard({ title, text, onRetry }: { title: string; text: string; onRetry(): void }) {
  const { t } = useI18n();
  return (
    <div className="empty-state mk-error" role="alert" data-testid="markets-error">
      <div className="empty-state-icon mk-error-icon">
        <Icon name="alert" size={26} />
      </div>
      <h3>{title}</h3>
      <p>{text}</p>
      <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry}>
        {t('common.retry')}
      </button>
    </div>
  );
}
