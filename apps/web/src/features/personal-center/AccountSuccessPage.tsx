import { Link, useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../app/paths';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../lib/i18n';
import { useTrading } from '../../lib/trading/store';
import { accountTypeKey, formatLeverage, formatMoney, tradeTypeKey } from './account-text';
import { useAccountInfo } from './accounts-api';

/** The account just opened (`?account=<id>`): its figures, then trading or back to the list. */
export function Component() {
  const { t, lang, intl } = useI18n();
  const navigate = useNavigate();
  const trading = useTrading();
  const [params] = useSearchParams();
  const accountId = /^\d+$/.test(params.get('account') ?? '') ? Number(params.get('account')) : null;
  const { load, reload } = useAccountInfo(accountId);
  const backToAccounts = (
    <Link
      to={paths.personalCenter(lang, 'account')}
      className="btn btn-secondary"
      data-testid="success-accounts"
    >
      {t('accounts.success.back')}
    </Link>
  );

  if (!accountId || load.status === 'failed') {
    return (
      <div className="card" data-testid="success-missing">
        <div className="empty-state">
          <div className="empty-state-icon">
            <Icon name="alert" size={26} />
          </div>
          <h3>{t('accounts.success.missingTitle')}</h3>
          <p>{load.status === 'failed' ? load.message : t('accounts.success.missingText')}</p>
          <div className="ac-actions">
            {load.status === 'failed' && (
              <button type="button" className="btn btn-secondary" onClick={() => void reload()}>
                {t('common.retry')}
              </button>
            )}
            {backToAccounts}
          </div>
        </div>
      </div>
    );
  }

  const info = load.status === 'ready' ? load.data : null;
  const startTrading = () => {
    // The new account becomes the current one (spec 4: saved in the account cookie) before trading.
    trading.select(accountId);
    navigate(paths.trade(lang));
  };

  return (
    <div className="card ac-success" data-testid="account-success" data-account={accountId}>
      <div className="empty-state-icon success">
        <Icon name="check" size={28} />
      </div>
      <h1>{t('pc.success.title')}</h1>
      {info ? (
        <>
          <p>
            {t('accounts.success.text', {
              type: t(accountTypeKey(info.account_type)),
              id: info.account_id,
            })}
          </p>
          <dl className="ac-success-figures">
            <div>
              <dt>{t('accounts.field.balance')}</dt>
              <dd className="num" data-testid="success-balance">
                {formatMoney(intl, info.balance, info.currency)}
              </dd>
            </div>
            <div>
              <dt>{t('accounts.field.equity')}</dt>
              <dd className="num">{formatMoney(intl, info.total_equity, info.currency)}</dd>
            </div>
            <div>
              <dt>{t('accounts.create.modeTitle')}</dt>
              <dd>{t(tradeTypeKey(info.trade_type))}</dd>
            </div>
            <div>
              <dt>{t('accounts.field.leverage')}</dt>
              <dd className="num">{formatLeverage(intl, info.leverage)}</dd>
            </div>
          </dl>
          {info.account_type !== 1 && <p className="ac-muted">{t('accounts.success.fund')}</p>}
        </>
      ) : (
        <div className="ac-success-figures" aria-busy="true">
          <div className="skeleton ac-skeleton-line" />
          <div className="skeleton ac-skeleton-line" />
        </div>
      )}
      <div className="ac-actions">
        <button type="button" className="btn btn-primary" onClick={startTrading} data-testid="success-trade">
          <Icon name="chart" size={18} />
          {t('accounts.success.trade')}
        </button>
        {backToAccounts}
      </div>
    </div>
  );
}
