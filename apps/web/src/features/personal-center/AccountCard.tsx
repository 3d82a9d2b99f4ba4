import { useI18n } from '../../lib/i18n';
import type { TAccountEntry } from '../../lib/trading/account-state';
import { accountTypeKey, formatLeverage, formatMoney, tradeTypeKey } from './account-text';

/** The connection state of spec 4: is_abnormal 1 means the account's link (an MT bridge) is down. */
export function ConnectionState({ abnormal }: { abnormal: boolean }) {
  const { t } = useI18n();
  return (
    <span className="ac-connection" data-abnormal={abnormal} data-testid="account-connection">
      <span className="ac-connection-dot" aria-hidden="true" />
      {t(abnormal ? 'accounts.connection.abnormal' : 'accounts.connection.normal')}
    </span>
  );
}

/**
 * One account of the list: a radio card, so choosing it makes it the current account (spec 4:
 * the choice is saved in the `account` cookie). Figures are the list's, or the live ones for the
 * current account.
 */
export function AccountCard({
  account,
  current,
  equity,
  balance,
  onSelect,
}: {
  account: TAccountEntry;
  current: boolean;
  equity: string;
  balance: string;
  onSelect(): void;
}) {
  const { t, intl } = useI18n();
  return (
    <label
      className="ac-card"
      data-current={current}
      data-testid="account-card"
      data-account={account.account_id}
      data-type={account.account_type}
    >
      <input
        type="radio"
        name="current-account"
        className="st-radio ac-card-radio"
        checked={current}
        onChange={onSelect}
        aria-label={t('accounts.card.choose', { id: account.account_id })}
      />
      <span className="ac-card-badges">
        <span className="badge ac-type" data-type={account.account_type}>
          {t(accountTypeKey(account.account_type))}
        </span>
        <span className="badge">{t(tradeTypeKey(account.trade_type))}</span>
      </span>
      <span className="ac-card-id">
        <span className="num">#{account.account_id}</span>
        {current && <span className="ac-current">{t('accounts.card.current')}</span>}
      </span>
      <span className="ac-card-equity">
        <span className="ac-label">{t('accounts.field.equity')}</span>
        <strong className="num" data-testid="account-equity">
          {formatMoney(intl, equity, account.currency)}
        </strong>
      </span>
      <span className="ac-card-meta">
        <span>
          <span className="ac-label">{t('accounts.field.balance')}</span>
          <span className="num" data-testid="account-balance">
            {formatMoney(intl, balance)}
          </span>
        </span>
        <span>
          <span className="ac-label">{t('accounts.field.leverage')}</span>
          <span className="num">{formatLeverage(intl, account.leverage)}</span>
        </span>
      </span>
      <ConnectionState abnormal={account.is_abnormal === 1} />
    </label>
  );
}
