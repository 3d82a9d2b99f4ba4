import { type ReactNode, useId, useState } from 'react';
import { useI18n } from '../../lib/i18n';
import { accountTypeKey, formatLeverage, formatMoney, tradeTypeKey } from './account-text';
import type { TCategory, TNewAccount } from './accounts-api';

const TRADE_TYPES = [1, 2] as const;
const EXPERIENCE_TYPE = 3;

/** How many more accounts of a type may be opened in a mode (accountcategory `remaining`). */
const remainingIn = (category: TCategory, tradeType: number) => category.remaining[String(tradeType)] ?? 0;

/** Demo and real limits count every mode together; experience accounts are limited per mode (spec 9). */
const remainingOf = (category: TCategory) =>
  category.account_type === EXPERIENCE_TYPE
    ? TRADE_TYPES.reduce((sum, mode) => sum + remainingIn(category, mode), 0)
    : Math.max(...TRADE_TYPES.map((mode) => remainingIn(category, mode)));

const openable = (category: TCategory) =>
  category.trade_types.some((mode) => remainingIn(category, mode) > 0);

function firstMode(category: TCategory, preferred: number): number {
  if (remainingIn(category, preferred) > 0) return preferred;
  return category.trade_types.find((mode) => remainingIn(category, mode) > 0) ?? preferred;
}

function Step({
  n,
  title,
  hint,
  children,
}: {
  n: number;
  title: string;
  hint?: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section className="card ac-step" aria-labelledby={id}>
      <header className="ac-step-head">
        <span className="ac-step-n" aria-hidden="true">
          {n}
        </span>
        <div>
          <h2 id={id}>{title}</h2>
          {hint && <p>{hint}</p>}
        </div>
      </header>
      {children}
    </section>
  );
}

/**
 * The choices of a new account and their summary; `onConfirm` receives a choice that may be opened.
 * `initialType` chooses an account type first when one may still be opened (else the first that may).
 */
export function CreateAccountForm({
  categories,
  initialType,
  busy,
  error,
  onConfirm,
}: {
  categories: TCategory[];
  initialType?: number | undefined;
  busy: boolean;
  error: string | null;
  onConfirm(choice: TNewAccount): void;
}) {
  const { t, intl } = useI18n();
  const initial =
    categories.find((c) => c.account_type === initialType && openable(c)) ??
    categories.find(openable) ??
    categories[0];
  const [accountType, setAccountType] = useState(initial?.account_type ?? 1);
  const [tradeType, setTradeType] = useState(initial ? firstMode(initial, 1) : 1);
  const [leverage, setLeverage] = useState(initial?.default_leverage ?? 100);

  const category = categories.find((c) => c.account_type === accountType);
  if (!category) return null;
  const available = remainingIn(category, tradeType) > 0;
  const chooseType = (next: TCategory) => {
    setAccountType(next.account_type);
    setTradeType(firstMode(next, tradeType));
    if (!next.leverages.includes(leverage)) setLeverage(next.default_leverage);
  };

  return (
    <form
      className="ac-create"
      data-testid="create-account"
      onSubmit={(e) => {
        e.preventDefault();
        if (!available || busy) return;
        onConfirm({
          accountType: accountType as TNewAccount['accountType'],
          tradeType: tradeType as TNewAccount['tradeType'],
          leverage,
        });
      }}
    >
      <div className="ac-create-steps">
        <Step n={1} title={t('accounts.create.typeTitle')}>
          <div
            className="ac-choices ac-choices-3"
            role="radiogroup"
            aria-label={t('accounts.create.typeTitle')}
          >
            {categories.map((c) => {
              const left = remainingOf(c);
              const disabled = !openable(c);
              return (
                <label
                  key={c.account_type}
                  className="ac-choice"
                  data-disabled={disabled}
                  data-testid={`create-type-${c.account_type}`}
                >
                  <input
                    type="radio"
                    name="account-type"
                    className="st-radio"
                    checked={c.account_type === accountType}
                    disabled={disabled}
                    onChange={() => chooseType(c)}
                  />
                  <span className="ac-choice-title">{t(accountTypeKey(c.account_type))}</span>
                  <span className="ac-choice-figure num">
                    {formatMoney(intl, c.initial_balance, c.currency)}
                  </span>
                  <span className="ac-choice-caption">{t('accounts.create.startingBalance')}</span>
                  <span className="ac-choice-text">{t(`accounts.create.note.${c.account_type}`)}</span>
                  <span className="ac-choice-foot" data-testid="create-remaining" data-left={left}>
                    {disabled
                      ? t('accounts.create.limitReached')
                      : t('accounts.create.remaining', { count: left })}
                  </span>
                </label>
              );
            })}
          </div>
        </Step>

        <Step n={2} title={t('accounts.create.modeTitle')} hint={t('accounts.create.modeHint')}>
          <div
            className="ac-choices ac-choices-2"
            role="radiogroup"
            aria-label={t('accounts.create.modeTitle')}
          >
            {category.trade_types.map((mode) => {
              const disabled = remainingIn(category, mode) === 0;
              return (
                <label
                  key={mode}
                  className="ac-choice"
                  data-disabled={disabled}
                  data-testid={`create-mode-${mode}`}
                >
                  <input
                    type="radio"
                    name="trade-type"
                    className="st-radio"
                    checked={mode === tradeType}
                    disabled={disabled}
                    onChange={() => setTradeType(mode)}
                  />
                  <span className="ac-choice-title">{t(tradeTypeKey(mode))}</span>
                  <span className="ac-choice-text">{t(`accounts.mode.${mode === 1 ? 1 : 2}.text`)}</span>
                  {disabled && (
                    <span className="ac-choice-foot" data-testid="create-mode-taken">
                      {t('accounts.create.modeTaken')}
                    </span>
                  )}
                </label>
              );
            })}
          </div>
        </Step>

        <Step n={3} title={t('accounts.create.leverageTitle')} hint={t('accounts.create.leverageHint')}>
          <div className="ac-chips" role="radiogroup" aria-label={t('accounts.create.leverageTitle')}>
            {category.leverages.map((value) => (
              <label key={value} className="ac-chip" data-testid={`create-leverage-${value}`}>
                <input
                  type="radio"
                  name="leverage"
                  checked={value === leverage}
                  onChange={() => setLeverage(value)}
                />
                <span className="num">{formatLeverage(intl, value)}</span>
              </label>
            ))}
          </div>
        </Step>
      </div>

      <aside className="card ac-summary" aria-labelledby="ac-summary-title">
        <h2 id="ac-summary-title">{t('accounts.create.summary')}</h2>
        <dl>
          <div>
            <dt>{t('accounts.create.typeTitle')}</dt>
            <dd>{t(accountTypeKey(accountType))}</dd>
          </div>
          <div>
            <dt>{t('accounts.create.modeTitle')}</dt>
            <dd>{t(tradeTypeKey(tradeType))}</dd>
          </div>
          <div>
            <dt>{t('accounts.field.leverage')}</dt>
            <dd className="num">{formatLeverage(intl, leverage)}</dd>
          </div>
          <div>
            <dt>{t('accounts.field.currency')}</dt>
            <dd>{category.currency}</dd>
          </div>
          <div>
            <dt>{t('accounts.create.startingBalance')}</dt>
            <dd className="num">{formatMoney(intl, category.initial_balance, category.currency)}</dd>
          </div>
        </dl>
        {error && (
          <div className="alert alert-error" role="alert" data-testid="create-error">
            {error}
          </div>
        )}
        {!available && <p className="ac-muted">{t('accounts.create.unavailable')}</p>}
        <button
          type="submit"
          className="btn btn-primary btn-block"
          disabled={!available || busy}
          data-testid="create-confirm"
        >
          {busy ? <span className="spinner st-spinner-sm" /> : t('accounts.create.confirm')}
        </button>
      </aside>
    </form>
  );
}
