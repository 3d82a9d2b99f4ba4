import { useEffect, useState } from 'react';
import { Icon } from '../components/Icon';
import { useI18n } from '../i18n';

/** A short notice that says what just happened; it goes after `lifetimeMs` (6 seconds unless told). */
export function useNotice(lifetimeMs = 6000): [string | null, (message: string | null) => void] {
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), lifetimeMs);
    return () => clearTimeout(timer);
  }, [notice, lifetimeMs]);
  return [notice, setNotice];
}

/** The notice in a polite live region that is there before the message, so screen readers read it. */
export function Notice({ message, testId }: { message: string | null; testId: string }) {
  return (
    <div className="kit-notice-slot" role="status" aria-live="polite">
      {message ? (
        <div className="kit-notice" data-testid={testId}>
          <Icon name="check" size={16} />
          <span>{message}</span>
        </div>
      ) : null}
    </div>
  );
}

/** A failed load with its reason and a retry. */
export function LoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useI18n();
  return (
    <div className="kit-load-error" role="alert">
      <Icon name="alert" size={16} />
      <span>{message}</span>
      <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry}>
        {t('admin.kit.retry')}
      </button>
    </div>
  );
}

/** A loading placeholder of a card or a drawer. */
export function Skeleton({ lines = 4 }: { lines?: number }) {
  return (
    <div className="kit-skeleton-stack" aria-busy="true">
      {Array.from({ length: lines }, (_, n) => (
        <span key={n} className="kit-skeleton" />
      ))}
    </div>
  );
}
