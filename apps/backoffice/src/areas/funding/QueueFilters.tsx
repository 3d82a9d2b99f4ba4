import { useI18n } from '../../i18n';
import { FilterSelect } from '../../kit/FilterSelect';
import { RefreshButton } from '../../kit/RefreshButton';
import { SearchBox } from '../../kit/SearchBox';
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
  return (
    <div className="fu-filters">
      <FilterSelect
        value={method}
        options={FUNDING_METHODS.map((value) => ({ value, label: methodLabel(t, value) }))}
        onChange={onMethod}
        label={t('admin.funding.field.method')}
        anyLabel={t('admin.funding.filter.anyMethod')}
        className="fu-select"
        testId="filter-method"
      />
      <SearchBox
        value={customer}
        onChange={onCustomer}
        label={t('admin.funding.filter.customer')}
        testId="filter-customer"
        className="fu-customer-filter"
      />
      {customer && customerName ? (
        <span className="kit-pill fu-pill-brand" data-testid="filter-customer-name">
          {customerName}
        </span>
      ) : null}
      <RefreshButton
        onRefresh={onRefresh}
        refreshing={refreshing}
        label={t('admin.funding.refresh')}
        className="fu-refresh"
      />
    </div>
  );
}
