import { useI18n } from '../lib/i18n';
import { Icon } from './Icon';

/** Placeholder blocks while a page's first read runs. Styles: load-states.css. */
export function Skeleton({
  rows = 3,
  height = 64,
  testId,
}: {
  rows?: number;
  height?: number;
  testId?: string;
}) {
  return (
    <div className="ui-skeleton" aria-busy="true" data-testid={testId}>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="skeleton" style={{ height }} />
      ))}
    </div>
  );
}

/** The inline failure of a read with a retry button. */
export function LoadError({
  message,
  onRetry,
  testId,
}: {
  message: string;
  onRetry(): void;
  testId?: string;
}) {
  const { t } = useI18n();
  return (
    <div className="card ui-inline-error" role="alert" data-testid={testId}>
      <Icon name="alert" size={18} />
      <span>{message}</span>
      <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry}>
        {t('common.retry')}
      </button>
    </div>
  );
}
