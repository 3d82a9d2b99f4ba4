import './converter.css';
import type { TRouteOutput } from '@broker/contracts/routes';
import { type KeyboardEvent, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { Icon } from '../../components/Icon';
import { fetchData } from '../../lib/api';
import { useI18n } from '../../lib/i18n';
import { formatDecimal } from '../../lib/market-format';
import { MARKET_TIMING, usePolling } from '../../lib/market-stream';
import { useDismiss } from '../../lib/use-dismiss';
import { isPeg, parseAmount } from './amount';

type TCurrency = TRouteOutput<'pairs'>['currencies'][number];
const GROUPS = ['fiat', 'crypto', 'metal'] as const;

function CurrencyPicker({
  label,
  value,
  currencies,
  onChange,
  testId,
}: {
  label: string;
  value: string;
  currencies: TCurrency[];
  onChange(code: string): void;
  testId: string;
}) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const ref = useRef<HTMLDivElement>(null);
  const listId = useId();
  const selected = currencies.find((c) => c.code === value);
  useDismiss(ref, open, () => setOpen(false));

  const q = query.trim().toLowerCase();
  const filtered = currencies.filter(
    (c) => !q || c.code.toLowerCase().includes(q) || c.name.toLowerCase().includes(q),
  );
  const ordered = GROUPS.flatMap((group) => filtered.filter((c) => c.kind === group));

  const choose = (code: string) => {
    onChange(code);
    setOpen(false);
    setQuery('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (ordered.length === 0 ? 0 : (i + step + ordered.length) % ordered.length));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const option = ordered[active];
      if (option) choose(option.code);
    }
  };

  return (
    <div className="cv-picker" ref={ref}>
      <span className="field-label" id={`${listId}-label`}>
        {label}
      </span>
      <button
        type="button"
        className="cv-picker-button"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-labelledby={`${listId}-label ${listId}-value`}
        data-testid={testId}
        data-value={value}
        onClick={() => {
          setOpen((v) => !v);
          setActive(
            Math.max(
              0,
              currencies.findIndex((c) => c.code === value),
            ),
          );
        }}
      >
        {/* The badge repeats the code as decoration, drawn by CSS so that the button's visible
            words are the words of its name (WCAG 2.5.3). */}
        <span className="cv-code-badge" data-code={value.slice(0, 4)} aria-hidden="true" />
        <span className="cv-picker-text" id={`${listId}-value`}>
          <span className="cv-code">{value}</span> <span className="cv-name">{selected?.name ?? ''}</span>
        </span>
        <Icon name="chevronDown" size={16} />
      </button>
      {open && (
        <div className="cv-popover">
          <div className="cv-search">
            <Icon name="search" size={16} />
            <input
              // biome-ignore lint/a11y/noAutofocus: the picker opens to type a search at once
              autoFocus
              className="input"
              value={query}
              placeholder={t('converter.search')}
              aria-label={t('converter.search')}
              aria-controls={`${listId}-list`}
              aria-activedescendant={ordered[active] ? `${listId}-${ordered[active].code}` : undefined}
              onChange={(event) => {
                setQuery(event.target.value);
                setActive(0);
              }}
              onKeyDown={onKeyDown}
              data-testid={`${testId}-search`}
            />
          </div>
          <div className="cv-options" role="listbox" id={`${listId}-list`} aria-label={label}>
            {ordered.length === 0 && <p className="cv-no-match">{t('converter.noMatch')}</p>}
            {GROUPS.map((group) => {
              const items = ordered.filter((c) => c.kind === group);
              if (items.length === 0) return null;
              return (
                <div key={group} role="group" aria-label={t(`converter.group.${group}`)}>
                  <div className="cv-group">{t(`converter.group.${group}`)}</div>
                  {items.map((c) => {
                    const index = ordered.indexOf(c);
                    return (
                      <div
                        key={c.code}
                        id={`${listId}-${c.code}`}
                        role="option"
                        tabIndex={-1}
                        aria-selected={c.code === value}
                        className={`cv-option${index === active ? ' active' : ''}${c.code === value ? ' selected' : ''}`}
                        data-code={c.code}
                        onMouseEnter={() => setActive(index)}
                        onMouseDown={(event) => event.preventDefault()}
                        onClick={() => choose(c.code)}
                        onKeyDown={(event) => {
                          if (event.key === 'Enter') choose(c.code);
                        }}
                      >
                        <span className="cv-code">{c.code}</span>
                        <span className="cv-name">{c.name}</span>
                        {c.code === value && <Icon name="check" size={16} />}
                      </div>
                    );
                  })}
                </div>
              );
            })}
          </div>
        </div>
      )}
    </div>
  );
}

/** Currency converter through live mid prices: pickers, amount, swap, result with rate and path. */
export function Component() {
  const { t, lang, intl, formatDate } = useI18n();
  const [from, setFrom] = useState('EUR');
  const [to, setTo] = useState('USD');
  const [amountText, setAmountText] = useState('1000');
  const [currencies, setCurrencies] = useState<TCurrency[]>([]);
  const amount = parseAmount(amountText);
  const amountId = useId();

  useEffect(() => {
    let cancelled = false;
    fetchData('pairs', {}, lang).then(
      (data) => !cancelled && setCurrencies(data.currencies),
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [lang]);

  const value = amount.ok ? amount.value : null;
  const fetcher = useCallback(
    () => fetchData('pairs', { from, to, amount: value ?? '1' }, lang).then((data) => data.conversion),
    [from, to, value, lang],
  );
  // A change of the inputs restarts the polling: its first fetch after the delay is the debounce.
  const conversion = usePolling(value === null ? null : fetcher, `${from}|${to}|${value}|${lang}`, {
    delayMs: MARKET_TIMING.debounceMs,
    keepPrevious: true,
  });
  const result = conversion.data;
  const current = result && result.from === from && result.to === to && result.amount === value;

  const names = useMemo(() => new Map(currencies.map((c) => [c.code, c.name])), [currencies]);
  const swap = () => {
    setFrom(to);
    setTo(from);
  };
  const amountError = amount.ok ? null : t(`converter.error.${amount.error}`);

  return (
    <div className="cv-page">
      <div className="cv-container">
        <header className="cv-head">
          <h1>{t('converter.title')}</h1>
          <p>{t('converter.subtitle')}</p>
        </header>

        <section className="cv-card" data-testid="converter">
          <div className="cv-amount field">
            <label className="field-label" htmlFor={amountId}>
              {t('converter.amount')}
            </label>
            <input
              id={amountId}
              className="input cv-amount-input num"
              inputMode="decimal"
              autoComplete="off"
              spellCheck={false}
              value={amountText}
              maxLength={26}
              aria-invalid={!amount.ok}
              aria-describedby={`${amountId}-error`}
              onChange={(event) => setAmountText(event.target.value)}
              data-testid="converter-amount"
            />
            <span
              className="field-error"
              id={`${amountId}-error`}
              role="alert"
              data-testid="converter-amount-error"
            >
              {amountError ?? ''}
            </span>
          </div>

          <div className="cv-pair">
            <CurrencyPicker
              label={t('converter.from')}
              value={from}
              currencies={currencies}
              onChange={setFrom}
              testId="converter-from"
            />
            <button
              type="button"
              className="cv-swap"
              onClick={swap}
              aria-label={t('converter.swap')}
              title={t('converter.swap')}
              data-testid="converter-swap"
            >
              <Icon name="swap" size={18} />
            </button>
            <CurrencyPicker
              label={t('converter.to')}
              value={to}
              currencies={currencies}
              onChange={setTo}
              testId="converter-to"
            />
          </div>

          <div
            className={`cv-result${current ? '' : ' is-stale'}`}
            data-testid="converter-result"
            data-ready={current ? 'true' : 'false'}
            data-from={result?.from ?? ''}
            data-to={result?.to ?? ''}
            data-amount={result?.amount ?? ''}
            data-rate={result?.rate ?? ''}
            data-result={result?.result ?? ''}
            aria-live="polite"
          >
            {conversion.error && !result ? (
              <div className="cv-result-error">
                <span>{t('converter.error.rate')}</span>
                <button type="button" className="btn btn-secondary btn-sm" onClick={conversion.retry}>
                  {t('common.retry')}
                </button>
              </div>
            ) : result && value !== null ? (
              <>
                <p className="cv-result-from num">
                  {formatDecimal(intl, result.amount)} {result.from} =
                </p>
                <p className="cv-result-to num">
                  {formatDecimal(intl, result.result)} <span className="cv-result-code">{result.to}</span>
                </p>
                <p className="cv-result-names">
                  {names.get(result.from) ?? result.from} → {names.get(result.to) ?? result.to}
                </p>
                <dl className="cv-facts">
                  <div>
                    <dt>{t('converter.rate')}</dt>
                    <dd className="num" data-testid="converter-rate">
                      1 {result.from} = {formatDecimal(intl, result.rate)} {result.to}
                    </dd>
                  </div>
                  <div>
                    <dt>{t('converter.time')}</dt>
                    <dd className="num">
                      {result.time > 0
                        ? formatDate(result.time, { dateStyle: 'medium', timeStyle: 'medium' })
                        : '—'}
                    </dd>
                  </div>
                  <div>
                    <dt>{t('converter.path')}</dt>
                    <dd className="cv-path" data-testid="converter-path">
                      {result.path.length === 0
                        ? '—'
                        : result.path.map((step, i) => (
                            <span key={step} className="cv-path-step">
                              {i > 0 && <Icon name="chevronRight" size={14} />}
                              {isPeg(step) ? (
                                <span className="cv-chip cv-chip-peg" title={t('converter.peg')}>
                                  {step.replace('=', ' = ')}
                                </span>
                              ) : (
                                <Link to={paths.symbol(lang, step)} className="cv-chip">
                                  {step}
                                </Link>
                              )}
                            </span>
                          ))}
                    </dd>
                  </div>
                </dl>
              </>
            ) : value === null ? (
              <p className="cv-result-placeholder">—</p>
            ) : (
              <div className="cv-result-loading" aria-hidden="true">
                <span className="skeleton cv-sk-line" />
                <span className="skeleton cv-sk-big" />
                <span className="skeleton cv-sk-line" />
              </div>
            )}
          </div>
          <p className="cv-note">{t('converter.note')}</p>
        </section>
      </div>
    </div>
  );
}
