import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../app/paths';
import { Icon } from '../../components/Icon';
import { Pager } from '../../components/Pager';
import { TRADE_TIME, useI18n } from '../../lib/i18n';
import { formatAmount } from '../../lib/money';
import { useTrading } from '../../lib/trading/store';
import {
  FINANCIAL_PAGE_SIZE,
  FINANCIAL_STATES,
  KIND_GROUPS,
  kindsOf,
  readFinancialFilters,
  reversedDays,
  type TFinancialFilters,
  writeFinancialFilters,
} from './financial-filters';
import { financialCsvHref, type TFinancialPage, type TMovement, useCall, useRouteLoad } from './funding-api';
import { methodName, PageHeader, StateBadge, stateText, toneOf } from './parts';

/**
 * The financial record (spec 2.2 "financial"): every money movement of the trader (deposits,
 * withdrawals, the four transfer types, adjustments, coin exchanges) with its state, signed amount,
 * fee and method, filtered by kind, state, account and days, 20 to a page, with the same rows as CSV.
 */
export function Component() {
  const { t } = useI18n();
  const trading = useTrading();
  const call = useCall();
  const [params, setParams] = useSearchParams();
  const filters = readFinancialFilters(params);
  const invalid = reversedDays(filters);
  const query = {
    ...(kindsOf(filters.kinds) ? { kinds: kindsOf(filters.kinds) } : {}),
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.account !== null ? { account_id: filters.account } : {}),
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: filters.to } : {}),
  };
  const { load, reload } = useRouteLoad<TFinancialPage>(
    invalid ? null : JSON.stringify([query, filters.page]),
    (signal) => call('financial', { ...query, page: filters.page, size: FINANCIAL_PAGE_SIZE }, signal),
  );

  const update = (change: Partial<TFinancialFilters>) => {
    setParams(writeFinancialFilters({ ...filters, page: 1, ...change }), {
      replace: change.page === undefined,
    });
  };
  const filtered =
    filters.kinds.length > 0 || filters.status || filters.account !== null || filters.from || filters.to;

  return (
    <div className="fu-page" data-testid="financial-page">
      <PageHeader
        title={t('pc.menu.financial')}
        subtitle={t('pc.financial.subtitle')}
        actions={
          <a
            className="btn btn-secondary btn-sm"
            href={financialCsvHref(query)}
            download
            data-testid="financial-csv"
          >
            <Icon name="download" size={16} />
            {t('funding.financial.csv')}
          </a>
        }
      />
      <Filters filters={filters} invalid={invalid} onChange={update} accounts={trading.state.accounts} />
      <div className="card fu-panel">
        {load.status === 'loading' && !invalid && (
          <div className="fu-skeleton fu-panel-pad" aria-busy="true" data-testid="financial-loading">
            {Array.from({ length: 5 }, (_, i) => (
              <div key={i} className="skeleton" />
            ))}
          </div>
        )}
        {load.status === 'failed' && (
          <div className="st-inline-error fu-panel-pad" role="alert" data-testid="financial-error">
            <span>{load.message}</span>
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => void reload(false)}>
              {t('common.retry')}
            </button>
          </div>
        )}
        {load.status === 'ready' && load.data.items.length === 0 && (
          <div className="empty-state" data-testid="financial-empty">
            <div className="empty-state-icon">
              <Icon name="financial" size={26} />
            </div>
            <h2>{t(filtered ? 'funding.financial.noMatchTitle' : 'pc.financial.emptyTitle')}</h2>
            <p>{t(filtered ? 'funding.financial.noMatchText' : 'pc.financial.emptyText')}</p>
            {filtered ? (
              <button
                type="button"
                className="btn btn-secondary"
                onClick={() => setParams(new URLSearchParams())}
              >
                {t('funding.financial.clear')}
              </button>
            ) : null}
          </div>
        )}
        {load.status === 'ready' && load.data.items.length > 0 && (
          <>
            <MovementsTable items={load.data.items} />
            <Pager
              page={load.data.page}
              size={load.data.size}
              total={load.data.total}
              onPage={(page) => update({ page })}
              name="financial"
              className="fu-pager"
            />
          </>
        )}
      </div>
    </div>
  );
}

function Filters({
  filters,
  invalid,
  onChange,
  accounts,
}: {
  filters: TFinancialFilters;
  invalid: boolean;
  onChange(change: Partial<TFinancialFilters>): void;
  accounts: ReturnType<typeof useTrading>['state']['accounts'];
}) {
  const { t } = useI18n();
  const id = useId();
  const toggle = (kind: (typeof KIND_GROUPS)[number]) =>
    onChange({
      kinds: filters.kinds.includes(kind)
        ? filters.kinds.filter((k) => k !== kind)
        : [...filters.kinds, kind],
    });
  return (
    <section
      className="card fu-filters"
      aria-label={t('funding.financial.filters')}
      data-testid="financial-filters"
    >
      <fieldset className="fu-kinds">
        <legend className="field-label">{t('funding.financial.kinds')}</legend>
        <div className="fu-chips">
          {KIND_GROUPS.map((kind) => (
            <label key={kind} className="fu-chip" data-testid={`financial-kind-${kind}`}>
              <input type="checkbox" checked={filters.kinds.includes(kind)} onChange={() => toggle(kind)} />
              <span>
                <Icon name="check" size={14} />
                {t(`funding.group.${kind}`)}
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="fu-filter-row">
        <div className="field">
          <label className="field-label" htmlFor={`${id}-status`}>
            {t('funding.financial.state')}
          </label>
          <select
            id={`${id}-status`}
            className="input fu-select"
            value={filters.status}
            onChange={(e) => onChange({ status: e.target.value })}
            data-testid="financial-status"
          >
            <option value="">{t('funding.financial.allStates')}</option>
            {FINANCIAL_STATES.map((state) => (
              <option key={state} value={state}>
                {stateText(
                  t,
                  ['initiated', 'awaiting_review', 'processing', 'rejected'].includes(state)
                    ? 'withdrawal'
                    : 'deposit',
                  state,
                )}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-account`}>
            {t('funding.field.account')}
          </label>
          <select
            id={`${id}-account`}
            className="input fu-select"
            value={filters.account ?? ''}
            onChange={(e) => onChange({ account: e.target.value ? Number(e.target.value) : null })}
            data-testid="financial-account"
          >
            <option value="">{t('funding.financial.allAccounts')}</option>
            {accounts.map((account) => (
              <option key={account.account_id} value={account.account_id}>
                {t('funding.accountShort', {
                  type: t(`accounts.type.${account.account_type}`),
                  id: account.account_id,
                })}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-from`}>
            {t('funding.financial.from')}
          </label>
          <input
            id={`${id}-from`}
            type="date"
            className="input"
            value={filters.from}
            max={filters.to || undefined}
            aria-invalid={invalid}
            aria-describedby={`${id}-dates`}
            onChange={(e) => onChange({ from: e.target.value })}
            data-testid="financial-from"
          />
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-to`}>
            {t('funding.financial.to')}
          </label>
          <input
            id={`${id}-to`}
            type="date"
            className="input"
            value={filters.to}
            min={filters.from || undefined}
            aria-invalid={invalid}
            aria-describedby={`${id}-dates`}
            onChange={(e) => onChange({ to: e.target.value })}
            data-testid="financial-to"
          />
        </div>
      </div>
      <span className="field-error fu-dates-error" id={`${id}-dates`} role="status" data-invalid={invalid}>
        {invalid ? t('funding.financial.badDays') : ''}
      </span>
    </section>
  );
}

const KIND_ICONS: Record<TMovement['kind'], string> = {
  deposit: 'deposit',
  withdrawal: 'withdraw',
  transfer_follow_out: 'exchange',
  transfer_follow_in: 'exchange',
  transfer_strategy_out: 'exchange',
  transfer_strategy_in: 'exchange',
  adjustment: 'settings',
  coin_exchange: 'star',
};

function MovementsTable({ items }: { items: TMovement[] }) {
  const { t, lang, intl, formatDate } = useI18n();
  const col = (key: string) => t(`funding.financial.col.${key}`);
  return (
    <div className="fu-table-wrap">
      <table className="fu-table" data-testid="financial-table">
        <caption className="sr-only">{t('pc.menu.financial')}</caption>
        <thead>
          <tr>
            <th scope="col">{col('time')}</th>
            <th scope="col">{col('type')}</th>
            <th scope="col">{col('account')}</th>
            <th scope="col">{col('method')}</th>
            <th scope="col" className="fu-end">
              {col('amount')}
            </th>
            <th scope="col" className="fu-end">
              {col('fee')}
            </th>
            <th scope="col">{col('state')}</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => {
            // Money that never moved (a failed deposit shows what was asked) is not coloured as moved.
            const moved = toneOf(item.status) !== 'stopped';
            const sign = !moved ? 0 : item.amount.startsWith('-') ? -1 : /[1-9]/.test(item.amount) ? 1 : 0;
            return (
              <tr key={item.id} data-testid="financial-row" data-kind={item.kind} data-status={item.status}>
                <td data-label={col('time')} className="fu-c-time">
                  <time dateTime={item.createdAt}>{formatDate(new Date(item.createdAt), TRADE_TIME)}</time>
                </td>
                <td data-label={col('type')} className="fu-type-cell fu-c-type">
                  <span className="fu-type">
                    <Icon name={KIND_ICONS[item.kind]} size={16} />
                    {movementHref(lang, item) ? (
                      <Link
                        to={movementHref(lang, item) ?? ''}
                        className="fu-link"
                        data-testid="financial-open"
                      >
                        {t(`funding.kind.${item.kind}`)}
                      </Link>
                    ) : (
                      t(`funding.kind.${item.kind}`)
                    )}
                  </span>
                  {item.counterparty !== null && (
                    <span className="fu-sub">
                      {t('funding.financial.counterparty', { id: item.counterparty })}
                    </span>
                  )}
                </td>
                <td data-label={col('account')} className="num fu-c-account">
                  #{item.account_id}
                </td>
                <td data-label={col('method')} className="fu-c-method">
                  {item.method ? methodName(t, item.method) : '—'}
                </td>
                <td data-label={col('amount')} className="fu-end fu-c-amount">
                  <span
                    className="fu-amount-signed num"
                    data-sign={sign}
                    data-moved={moved}
                    data-testid="financial-amount"
                  >
                    <span className="sr-only">
                      {t(sign < 0 ? 'funding.financial.out' : 'funding.financial.in')}{' '}
                    </span>
                    {formatAmount(intl, item.amount, item.currency, { sign: true })}
                  </span>
                </td>
                <td
                  data-label={col('fee')}
                  className="fu-end num fu-c-fee"
                  data-empty={!moved || !/[1-9]/.test(item.fee)}
                >
                  {moved && /[1-9]/.test(item.fee) ? formatAmount(intl, item.fee, item.currency) : '—'}
                </td>
                <td data-label={col('state')} className="fu-c-state">
                  <StateBadge kind={item.kind} status={item.status} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Where a movement's own page is: deposits and withdrawals can be followed on theirs. */
function movementHref(lang: string, item: TMovement): string | null {
  if (item.kind === 'deposit')
    return `${paths.personalCenter(lang, 'deposit')}?deposit=${encodeURIComponent(item.id)}`;
  if (item.kind === 'withdrawal')
    return `${paths.personalCenter(lang, 'withdrawal')}?withdrawal=${encodeURIComponent(item.id)}`;
  return null;
}
