import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../app/paths';
import { Icon } from '../../components/Icon';
import { Pager } from '../../components/Pager';
import { useI18n } from '../../lib/i18n';
import { useKlineColor } from '../../lib/market-format';
import { useTrading } from '../../lib/trading/store';
import { DealsTable } from './DealsTable';
import { HistoryFilters } from './HistoryFilters';
import { useHistory, useSubAccounts } from './history-api';
import {
  csvHref,
  HISTORY_TABS,
  periodOf,
  readFilters,
  type THistoryFilters,
  writeFilters,
} from './history-filters';
import { OrdersTable } from './OrdersTable';

/**
 * Trading history (spec 2.2 "history"): closed positions and finished orders of one account, by
 * period and symbol, 20 to a page, with a CSV export of the same closed positions.
 */
export function Component() {
  const { t, lang } = useI18n();
  const trading = useTrading();
  const klineColor = useKlineColor();
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  // Presets count back from the moment the page opened (or was refreshed): read in the browser only.
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => setNow(Date.now()), []);

  const { state } = trading;
  const subAccounts = useSubAccounts(state.status !== 0 && state.accounts.length > 0);
  // An account in the address that is no longer the trader's falls back to the current one; a copy
  // or strategy account is read like a main one.
  const sub = subAccounts.find((c) => c.account_id === filters.account);
  const account = sub ?? state.accounts.find((a) => a.account_id === filters.account) ?? state.current;
  const period = now === null ? null : periodOf(filters, now);
  const { load, reload } = useHistory(
    account && period
      ? {
          tab: filters.tab,
          accountId: account.account_id,
          ...period,
          symbol: filters.symbol,
          page: filters.page,
        }
      : null,
  );

  const update = (change: Partial<THistoryFilters>) => {
    // Any new filter starts again at the first page.
    const next = { ...filters, page: 1, ...change };
    setParams(writeFilters(next), { replace: change.page === undefined });
  };

  const header = (
    <div className="pc-head">
      <div>
        <h1>{t('pc.menu.history')}</h1>
        <p>{t('history.subtitle')}</p>
      </div>
    </div>
  );

  if (trading.loading || state.status === 0) {
    return (
      <div className="hi-page">
        {header}
        {!trading.loading && trading.error ? (
          <div className="card st-inline-error" role="alert">
            <span>{t(trading.error)}</span>
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => void trading.reload()}>
              {t('common.retry')}
            </button>
          </div>
        ) : (
          <div className="card hi-skeleton" aria-busy="true">
            <div className="skeleton" />
            <div className="skeleton" />
            <div className="skeleton" />
          </div>
        )}
      </div>
    );
  }

  if (state.accounts.length === 0) {
    return (
      <div className="hi-page">
        {header}
        <div className="card" data-testid="history-no-accounts">
          <div className="empty-state">
            <div className="empty-state-icon">
              <Icon name="history" size={26} />
            </div>
            <h2>{t('history.noAccounts.title')}</h2>
            <p>{t('history.noAccounts.text')}</p>
            <Link to={paths.personalCenter(lang, 'account/create')} className="btn btn-primary">
              {t('accounts.empty.open')}
            </Link>
          </div>
        </div>
      </div>
    );
  }

  const currency = account?.currency ?? '';
  return (
    <div className="hi-page mk-scope" data-kline={klineColor} data-testid="history">
      {header}
      <HistoryFilters
        accounts={state.accounts}
        subAccounts={subAccounts}
        accountId={account?.account_id ?? null}
        filters={filters}
        invalidPeriod={now !== null && period === null}
        onChange={update}
      />

      <div className="card hi-panel">
        <div className="hi-toolbar">
          <div className="hi-tabs" role="tablist" aria-label={t('history.tabs.label')}>
            {HISTORY_TABS.map((tab) => (
              <button
                key={tab}
                type="button"
                role="tab"
                id={`hi-tab-${tab}`}
                aria-selected={filters.tab === tab}
                aria-controls="hi-tabpanel"
                className={`hi-tab${filters.tab === tab ? ' active' : ''}`}
                onClick={() => update({ tab })}
                data-testid={`history-tab-${tab}`}
              >
                {t(`history.tabs.${tab}`)}
              </button>
            ))}
          </div>
          <div className="hi-toolbar-actions">
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={() => (filters.range === 'custom' ? void reload() : setNow(Date.now()))}
              data-testid="history-refresh"
            >
              <Icon name="history" size={16} />
              {t('history.refresh')}
            </button>
            {filters.tab === 'deals' && account && period && (
              <a
                className="btn btn-secondary btn-sm"
                href={csvHref(account.account_id, period, filters.symbol)}
                download
                data-testid="history-export"
              >
                <Icon name="download" size={16} />
                {t('history.export')}
              </a>
            )}
          </div>
        </div>

        <div id="hi-tabpanel" role="tabpanel" aria-labelledby={`hi-tab-${filters.tab}`}>
          {(load.status === 'loading' || (load.status === 'idle' && now === null)) && (
            <div className="hi-skeleton" aria-busy="true" data-testid="history-loading">
              {Array.from({ length: 5 }, (_, i) => (
                <div key={i} className="skeleton" />
              ))}
            </div>
          )}
          {load.status === 'failed' && (
            <div className="st-inline-error hi-error" role="alert" data-testid="history-error">
              <span>{load.message}</span>
              <button type="button" className="btn btn-secondary btn-sm" onClick={() => void reload()}>
                {t('common.retry')}
              </button>
            </div>
          )}
          {load.status === 'ready' && load.data.items.length === 0 && (
            <div className="empty-state" data-testid="history-empty">
              <div className="empty-state-icon">
                <Icon name="history" size={26} />
              </div>
              <h2>{t(load.tab === 'deals' ? 'history.empty.deals' : 'history.empty.orders')}</h2>
              <p>{t('history.empty.text')}</p>
            </div>
          )}
          {load.status === 'ready' && load.data.items.length > 0 && (
            <>
              {load.tab === 'deals' ? (
                <DealsTable deals={load.data.items} currency={currency} />
              ) : (
                <OrdersTable orders={load.data.items} />
              )}
              <Pager
                page={load.data.page}
                size={load.data.size}
                total={load.data.total}
                onPage={(page) => update({ page })}
              />
            </>
          )}
        </div>
      </div>
    </div>
  );
}
