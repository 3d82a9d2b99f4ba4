import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { Icon } from '../../components/Icon';
import { TRADE_TIME, useI18n } from '../../lib/i18n';
import { formatAmount } from '../../lib/money';
import type { TAccountEntry } from '../../lib/trading/account-state';
import type { TFinancialPage, TLoad } from './funding-api';
import { methodName, StateBadge } from './parts';

/**
 * The latest deposits or withdrawals under their form, newest first, each with its state and a link
 * to follow it; the full record is on the financial page.
 */
export function RecentMovements({
  kind,
  load,
  accounts,
  onRetry,
  detailHref,
}: {
  kind: 'deposit' | 'withdrawal';
  load: TLoad<TFinancialPage>;
  accounts: TAccountEntry[];
  onRetry(): void;
  detailHref(id: string): string;
}) {
  const { t, lang, intl, formatDate } = useI18n();
  const title = t(kind === 'deposit' ? 'funding.recent.deposits' : 'funding.recent.withdrawals');
  const accountType = (id: number) => accounts.find((a) => a.account_id === id)?.account_type;
  return (
    <section className="card fu-recent" aria-labelledby={`fu-recent-${kind}`} data-testid={`recent-${kind}s`}>
      <header className="fu-recent-head">
        <h2 id={`fu-recent-${kind}`}>{title}</h2>
        <Link
          to={`${paths.personalCenter(lang, 'financial')}?kind=${kind === 'deposit' ? 'deposit' : 'withdrawal'}`}
          className="fu-link"
        >
          {t('funding.recent.all')}
          <Icon name="chevronRight" size={14} />
        </Link>
      </header>
      {load.status === 'loading' && (
        <div className="fu-skeleton" aria-busy="true">
          <div className="skeleton" />
          <div className="skeleton" />
        </div>
      )}
      {load.status === 'failed' && (
        <div className="st-inline-error fu-recent-error" role="alert">
          <span>{load.message}</span>
          <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry}>
            {t('common.retry')}
          </button>
        </div>
      )}
      {load.status === 'ready' && load.data.items.length === 0 && (
        <p className="fu-empty" data-testid={`recent-${kind}s-empty`}>
          {t(kind === 'deposit' ? 'funding.recent.noDeposits' : 'funding.recent.noWithdrawals')}
        </p>
      )}
      {load.status === 'ready' && load.data.items.length > 0 && (
        <ul className="fu-recent-list">
          {load.data.items.map((item) => {
            const type = accountType(item.account_id);
            return (
              <li key={item.id} className="fu-recent-item" data-testid={`recent-${kind}`} data-id={item.id}>
                <span className="fu-recent-main">
                  <span className="fu-recent-amount num">
                    {formatAmount(intl, item.amount.replace(/^-/, ''), item.currency)}
                  </span>
                  <span className="fu-recent-meta">
                    {item.method ? methodName(t, item.method) : ''}
                    {' · '}
                    {type ? `${t(`accounts.type.${type}`)} ` : ''}#{item.account_id}
                    {' · '}
                    <time dateTime={item.createdAt}>{formatDate(new Date(item.createdAt), TRADE_TIME)}</time>
                  </span>
                </span>
                <StateBadge kind={kind} status={item.status} />
                <Link
                  to={detailHref(item.id)}
                  className="btn btn-ghost btn-sm"
                  data-testid={`recent-${kind}-open`}
                >
                  {t('funding.recent.open')}
                  <span className="sr-only">
                    {' '}
                    {formatAmount(intl, item.amount.replace(/^-/, ''), item.currency)}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
