import { useEffect, useId, useState } from 'react';
import { useI18n } from '../../lib/i18n';
import type { TAccountEntry } from '../../lib/trading/account-state';
import type { TSubAccountOption } from './history-api';
import { dayOf, RANGE_PRESETS, SYMBOL, type THistoryFilters } from './history-filters';

const TYPE_KEYS: Record<number, string> = {
  1: 'accounts.type.1',
  2: 'accounts.type.2',
  3: 'accounts.type.3',
  4: 'accounts.type.4',
  5: 'accounts.type.5',
};
const SYMBOL_DELAY_MS = 400;
const DAY_MS = 86_400_000;

/** Account, period (7, 30, 90 days or custom days) and symbol of the history shown. */
export function HistoryFilters({
  accounts,
  subAccounts = [],
  accountId,
  filters,
  invalidPeriod,
  onChange,
}: {
  accounts: TAccountEntry[];
  /** Copy and strategy accounts, listed after the main accounts. */
  subAccounts?: TSubAccountOption[];
  accountId: number | null;
  filters: THistoryFilters;
  invalidPeriod: boolean;
  onChange(change: Partial<THistoryFilters>): void;
}) {
  const { t } = useI18n();
  const id = useId();
  const [symbol, setSymbol] = useState(filters.symbol);
  const draft = symbol.trim().toUpperCase();
  const copies = subAccounts.flatMap((a) => (a.purpose === 'copy' ? [a] : []));
  const bots = subAccounts.flatMap((a) => (a.purpose === 'strategy' ? [a] : []));
  const symbolValid = draft === '' || SYMBOL.test(draft);

  // Follow the address when it changes elsewhere (back and forward).
  useEffect(() => setSymbol(filters.symbol), [filters.symbol]);

  // The symbol applies once typing pauses, so each keystroke does not ask the server.
  useEffect(() => {
    if (!symbolValid || draft === filters.symbol) return;
    const timer = setTimeout(() => onChange({ symbol: draft }), SYMBOL_DELAY_MS);
    return () => clearTimeout(timer);
  }, [draft, symbolValid, filters.symbol, onChange]);

  const chooseCustom = () => {
    const today = Date.now();
    onChange({
      range: 'custom',
      from: filters.from ?? dayOf(today - 30 * DAY_MS),
      to: filters.to ?? dayOf(today),
    });
  };

  return (
    <div className="card hi-filters" data-testid="history-filters">
      <div className="field hi-field-account">
        <label className="field-label" htmlFor={`${id}-account`}>
          {t('history.filter.account')}
        </label>
        <select
          id={`${id}-account`}
          className="input hi-select"
          value={accountId ?? ''}
          onChange={(e) => onChange({ account: Number(e.target.value) })}
          data-testid="history-account"
        >
          {accounts.map((a) => (
            <option key={a.account_id} value={a.account_id}>
              {`#${a.account_id} · ${t(TYPE_KEYS[a.account_type] ?? 'accounts.type.2')} · ${a.currency}`}
            </option>
          ))}
          {copies.length > 0 && (
            <optgroup label={t('history.filter.copies')}>
              {copies.map((c) => (
                <option key={c.account_id} value={c.account_id}>
                  {`#${c.account_id} · ${t('history.filter.copyOf', { leader: c.leaderNick })} · ${c.currency}`}
                </option>
              ))}
            </optgroup>
          )}
          {bots.length > 0 && (
            <optgroup label={t('history.filter.strategies')}>
              {bots.map((b) => (
                <option key={b.account_id} value={b.account_id}>
                  {`#${b.account_id} · ${t(`strategy.kind.${b.kind}`)} #${b.strategyId} · ${b.symbol} · ${b.currency}`}
                </option>
              ))}
            </optgroup>
          )}
        </select>
      </div>

      <fieldset className="field hi-field-period">
        <legend className="field-label">{t('history.filter.period')}</legend>
        <div className="hi-segments">
          {RANGE_PRESETS.map((days) => (
            <button
              key={days}
              type="button"
              className={`hi-segment${filters.range === days ? ' active' : ''}`}
              aria-pressed={filters.range === days}
              onClick={() => onChange({ range: days, from: null, to: null })}
              data-testid={`history-range-${days}`}
            >
              {t('history.filter.days', { count: Number(days) })}
            </button>
          ))}
          <button
            type="button"
            className={`hi-segment${filters.range === 'custom' ? ' active' : ''}`}
            aria-pressed={filters.range === 'custom'}
            onClick={chooseCustom}
            data-testid="history-range-custom"
          >
            {t('history.filter.custom')}
          </button>
        </div>
      </fieldset>

      {filters.range === 'custom' && (
        <div className="hi-dates">
          <div className="field">
            <label className="field-label" htmlFor={`${id}-from`}>
              {t('history.filter.from')}
            </label>
            <input
              id={`${id}-from`}
              type="date"
              className="input"
              value={filters.from ?? ''}
              max={filters.to ?? undefined}
              aria-invalid={invalidPeriod}
              onChange={(e) => onChange({ from: e.target.value || null })}
              data-testid="history-from"
            />
          </div>
          <div className="field">
            <label className="field-label" htmlFor={`${id}-to`}>
              {t('history.filter.to')}
            </label>
            <input
              id={`${id}-to`}
              type="date"
              className="input"
              value={filters.to ?? ''}
              min={filters.from ?? undefined}
              aria-invalid={invalidPeriod}
              onChange={(e) => onChange({ to: e.target.value || null })}
              data-testid="history-to"
            />
          </div>
          {invalidPeriod && (
            <p className="field-error hi-dates-error" role="alert">
              {t('history.filter.invalidPeriod')}
            </p>
          )}
        </div>
      )}

      <div className="field hi-field-symbol">
        <label className="field-label" htmlFor={`${id}-symbol`}>
          {t('history.filter.symbol')}
        </label>
        <input
          id={`${id}-symbol`}
          className="input hi-symbol"
          value={symbol}
          placeholder={t('history.filter.symbolPlaceholder')}
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          maxLength={12}
          aria-invalid={!symbolValid}
          aria-describedby={symbolValid ? undefined : `${id}-symbol-error`}
          onChange={(e) => setSymbol(e.target.value.toUpperCase())}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && symbolValid) onChange({ symbol: draft });
          }}
          data-testid="history-symbol"
        />
        {!symbolValid && (
          <span className="field-error" id={`${id}-symbol-error`}>
            {t('history.filter.symbolInvalid')}
          </span>
        )}
      </div>
    </div>
  );
}
