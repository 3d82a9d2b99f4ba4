import { Icon } from '../../components/Icon';
import { StreamBadge } from '../../components/StreamBadge';
import { useI18n } from '../../lib/i18n';
import { useStreamHealth } from '../../lib/market-stream';

/** The price stream's state on the chart: live (green), connecting (grey), reconnecting, offline. */
export function ConnectionBadge() {
  const { health } = useStreamHealth();
  return <StreamBadge health={health} state={health} />;
}

/**
 * Says plainly that prices are not live and orders may fail: while the price stream is down (offline,
 * or reconnecting for longer than a moment) or the account's connection is abnormal. It goes away by
 * itself once both are back.
 */
export function ConnectionBanner({ accountProblem }: { accountProblem: boolean }) {
  const { t } = useI18n();
  const { health, down } = useStreamHealth();
  if (!down && !accountProblem) return null;
  const key = !down
    ? 'trade.account.connection'
    : health === 'offline'
      ? 'trade.chart.stream.downOffline'
      : 'trade.chart.stream.down';
  return (
    <p
      className={`tr-conn${down ? ' is-down' : ''}`}
      role="alert"
      data-testid="connection-warning"
      data-reason={down ? health : 'account'}
    >
      <Icon name="alert" size={15} />
      {t(key)}
    </p>
  );
}
