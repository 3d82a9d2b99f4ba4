import { type ReactNode, useId } from 'react';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../lib/i18n';
import { formatDecimal } from '../../lib/market-format';
import { formatAmount } from '../../lib/money';
import type { TAccountEntry } from '../../lib/trading/account-state';
import type { TFundingMethod, TMethodInfo } from './funding-api';
import { expectedText, feeText, methodName } from './parts';

const METHOD_ICONS: Record<TFundingMethod, string> = {
  card: 'wallet',
  ewallet: 'phone',
  usdt_trc20: 'exchange',
  usdt_erc20: 'exchange',
  bank: 'home',
};

/** The account a deposit or withdrawal is for: a labelled select of the trader's real-money accounts. */
export function AccountSelect({
  accounts,
  value,
  onChange,
  testId,
}: {
  accounts: TAccountEntry[];
  value: number;
  onChange(accountId: number): void;
  testId: string;
}) {
  const { t, intl } = useI18n();
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {t('funding.field.account')}
      </label>
      <select
        id={id}
        className="input fu-select"
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        data-testid={testId}
      >
        {accounts.map((account) => (
          <option key={account.account_id} value={account.account_id}>
            {t('funding.accountOption', {
              type: t(`accounts.type.${account.account_type}`),
              id: account.account_id,
              balance: formatAmount(intl, account.balance, account.currency),
            })}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The methods as a group of radio cards: name, limits, fee, expected time and, for USDT, the rate
 * into the account currency. `side` picks the deposit or the withdrawal terms.
 */
export function MethodCards({
  methods,
  side,
  value,
  onChange,
  rateOf,
  accountCurrency,
  limits,
}: {
  methods: TMethodInfo[];
  side: 'deposit' | 'withdraw';
  value: TFundingMethod | null;
  onChange(method: TFundingMethod): void;
  rateOf(method: TMethodInfo): string | null;
  accountCurrency: string;
  /** The limits in the currency the trader types in, when it is not the method's own. */
  limits?: (method: TMethodInfo) => { min: string; max: string; currency: string };
}) {
  const { t, intl, formatNumber } = useI18n();
  const labelId = useId();
  return (
    <fieldset className="fu-methods-set">
      <legend className="field-label" id={labelId}>
        {t('funding.field.method')}
      </legend>
      <div className="fu-methods" data-testid="method-cards">
        {methods.map((method) => {
          const terms = method[side];
          const rate = rateOf(method);
          const shown = limits?.(method) ?? { min: terms.min, max: terms.max, currency: method.currency };
          return (
            <label
              key={method.method}
              className="fu-method"
              data-method={method.method}
              data-checked={value === method.method}
              data-testid={`method-${method.method}`}
            >
              <input
                type="radio"
                name={`${side}-method`}
                className="st-radio fu-method-radio"
                checked={value === method.method}
                onChange={() => onChange(method.method)}
              />
              <span className="fu-method-head">
                <span className="fu-method-icon" aria-hidden="true">
                  <Icon name={METHOD_ICONS[method.method]} size={18} />
                </span>
                <span className="fu-method-name">{methodName(t, method.method)}</span>
              </span>
              <span className="fu-method-terms">
                <span>
                  <span className="fu-term">{t('funding.terms.limits')}</span>{' '}
                  <span className="num">
                    {t('funding.terms.range', {
                      min: formatAmount(intl, shown.min),
                      max: formatAmount(intl, shown.max, shown.currency),
                    })}
                  </span>
                </span>
                <span>
                  <span className="fu-term">{t('funding.terms.fee')}</span>{' '}
                  {feeText(t, intl, terms, method.currency)}
                </span>
                <span>
                  <span className="fu-term">
                    {t(side === 'deposit' ? 'funding.terms.time' : 'funding.terms.payoutTime')}
                  </span>{' '}
                  {expectedText(t, terms.expectedMinutes)}
                </span>
                {method.currency !== accountCurrency && rate && (
                  <span data-testid={`method-${method.method}-rate`}>
                    <span className="fu-term">{t('funding.terms.rate')}</span>{' '}
                    <span className="num">
                      {t('funding.rate', {
                        from: `1 ${method.currency}`,
                        to: `${formatDecimal(intl, rate)} ${accountCurrency}`,
                      })}
                    </span>
                  </span>
                )}
                {method.confirmations !== null && side === 'deposit' && (
                  <span>
                    <span className="fu-term">{t('funding.terms.confirmations')}</span>{' '}
                    {formatNumber(method.confirmations)}
                  </span>
                )}
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

/** A money input with its currency, a hint and its error, wired for screen readers. */
export function AmountField({
  label,
  value,
  currency,
  hint,
  error,
  onChange,
  action,
  testId,
}: {
  label: string;
  value: string;
  currency: string;
  hint?: ReactNode;
  error?: string | null;
  onChange(text: string): void;
  action?: ReactNode;
  testId: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <div className="fu-amount">
        <input
          id={id}
          className="input num fu-amount-input"
          inputMode="decimal"
          autoComplete="off"
          spellCheck={false}
          value={value}
          aria-invalid={Boolean(error)}
          aria-describedby={`${id}-hint ${id}-error`}
          onChange={(e) => onChange(e.target.value)}
          data-testid={testId}
        />
        <span className="fu-amount-currency" aria-hidden="true">
          {currency}
        </span>
        {action}
      </div>
      {hint && (
        <span className="fu-hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      <span className="field-error" id={`${id}-error`} data-testid={`${testId}-error`}>
        {error}
      </span>
    </div>
  );
}
