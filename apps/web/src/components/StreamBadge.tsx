import { useI18n } from '../lib/i18n';
import type { TStreamHealth } from '../lib/market-stream';

const BADGE_KEYS: Record<TStreamHealth, string> = {
  live: 'markets.stream.live',
  connecting: 'markets.stream.connecting',
  reconnecting: 'markets.stream.reconnecting',
  offline: 'trade.chart.stream.offline',
};

/**
 * The price stream's state, the same badge on the markets pages and the terminal: live (green),
 * connecting (grey), reconnecting (amber, blinking), offline (red). `state` is what tests and
 * tools read in `data-state`.
 */
export function StreamBadge({ health, state }: { health: TStreamHealth; state: string }) {
  const { t } = useI18n();
  return (
    <span
      className={`stream-badge stream-badge-${health}`}
      data-testid="stream-status"
      data-state={state}
      role="status"
    >
      <span className="stream-badge-dot" aria-hidden="true" />
      {t(BADGE_KEYS[health])}
    </span>
  );
}
