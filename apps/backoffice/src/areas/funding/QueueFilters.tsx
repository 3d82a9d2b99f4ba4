import { useEffect, useRef, useState } from 'react';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../i18n';
import { FUNDING_METHODS, methodLabel, type TFundingMethod } from './format';

/** Method and customer filters of a deposit or withdrawal queue, and a refresh. */
export function QueueFilters({
  method,
  customer,
  customerName,
  onMethod,
  onCustomer,
  onRefresh,
  refreshing,
}: {
  method: TFundingMethod | undefined;
  /** The customer number filtered on ('' for everyone). */
  customer: string;
  /** The filtered customer's name, once a row shows it. */
  customerName: string | null;
  onMethod: (method: string | null) => void;
  onCustomer: (customer: string | null) => void;
  onRefresh: () => void;
  refreshing: boolean;
}) {
  const { t } = useI18n();
  const [text, setText] = useState(customer);
  const apply = useRef(onCustomer);
  apply.current = onCustomer;
  useEffect(() => setText(customer), [customer]);
  // The customer filter applies 400 ms after the last keystroke.
  useEffect(() => {
    if (text.trim() === customer) return;
    const timer = setTimeout(() => apply.current(text.trim() || null), 400);
    return () => clearTimeout(timer);
  }, [text, customer]);
  return (
    <div className="fu-filters">
      <select
        className="input fu-select"
        value={method ?? ''}
        onChange={(e) => onMethod(e.target.value || null)}
        aria-label={t('admin.funding.field.method')}
        data-testid="filter-method"
      >
        <option value="">{t('admin.funding.filter.anyMethod')}</option>
        {FUNDING_METHODS.map((value) => (
          <option key={value} value={value}>
            {methodLabel(t, value)}
          </option>
        ))}
      </select>
      <label className="kit-search fu-customer-filter">
        <Icon name="user" size={15} />
        <input
          className="input"
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={t('admin.funding.filter.customer')}
          aria-label={t('admin.funding.filter.customer')}
          maxLength={64}
          spellCheck={false}
          data-testid="filter-customer"
        />
      </label>
      {customer && customerName ? (
        <span className="kit-pill fu-pill-brand" data-testid="filter-customer-name">
          {customerName}
        </span>
      ) : null}
      <button
        type="button"
        className="btn btn-secondary btn-sm fu-refresh"
        onClick={onRefresh}
        disabled={refreshing}
        aria-label={t('admin.funding.refresh')}
        title={t('admin.funding.refresh')}
      >
        <Icon name="refresh" size={14} className={refreshing ? 'bo-spin' : undefined} />
      </button>
    </div>
  );
}
