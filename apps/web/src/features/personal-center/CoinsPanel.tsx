import { type FormEvent, useId, useRef, useState } from 'react';
import { Icon } from '../../components/Icon';
import { callRoute } from '../../lib/api';
import { failureText } from '../../lib/failure-text';
import { TRADE_TIME, useI18n } from '../../lib/i18n';
import { newIntentKey } from '../../lib/money';
import type { TAccountEntry } from '../../lib/trading/account-state';
import { useCoins } from './funding-actions-api';

/** Coins are whole numbers: 1 coin = 1 US cent (spec 9). */
const WHOLE = /^\d{1,6}$/;

/**
 * Coins of an experience account's owner (spec 9): the balance, how they were earned, and exchanging
 * them into this account at 1 coin = 1 cent, at most 10,000 cents per exchange.
 */
export function CoinsPanel({
  account,
  onChanged,
}: {
  account: TAccountEntry;
  onChanged(message: string): void;
}) {
  const { t, lang, formatNumber, formatDate } = useI18n();
  const coins = useCoins();
  const id = useId();
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const attempt = useRef<{ intent: string; key: string } | null>(null);

  if (coins.load.status === 'loading')
    return (
      <section
        className="card ac-coins skeleton ac-card-skeleton"
        aria-busy="true"
        data-testid="coins-loading"
      />
    );
  if (coins.load.status === 'failed')
    return (
      <section className="card st-inline-error" role="alert" data-testid="coins-error">
        <span>{coins.load.message}</span>
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => void coins.reload(false)}>
          {t('common.retry')}
        </button>
      </section>
    );

  const { balance, exchangeCap, items } = coins.load.data;
  const most = Math.min(balance, exchangeCap);
  const value = text.trim();
  const count = WHOLE.test(value) ? Number(value) : null;
  let problem: string | null = null;
  if (value === '' ? touched : count === null) problem = t('accounts.coins.whole');
  else if (count !== null && count < 1) problem = t('accounts.coins.whole');
  else if (count !== null && count > balance) problem = t('accounts.coins.notEnough', { count: balance });
  else if (count !== null && count > exchangeCap) problem = t('accounts.coins.overCap', { cap: exchangeCap });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (count === null || problem || busy) return;
    const intent = JSON.stringify([account.account_id, count]);
    if (attempt.current?.intent !== intent) attempt.current = { intent, key: newIntentKey() };
    setBusy(true);
    setError(null);
    const answer = await callRoute(
      'coinexchange',
      { account_id: account.account_id, coins: count, idempotencyKey: attempt.current.key },
      lang,
    );
    setBusy(false);
    if (answer.succeed && answer.Data) {
      attempt.current = null;
      setText('');
      setTouched(false);
      await coins.reload();
      onChanged(t('accounts.coins.done', { count, id: account.account_id }));
      return;
    }
    if (answer.code !== 0) attempt.current = null;
    setError(failureText(answer, t));
  };

  return (
    <section className="card ac-coins" aria-labelledby={`${id}-title`} data-testid="coins-panel">
      <header className="ac-subs-head">
        <div>
          <h2 id={`${id}-title`}>{t('accounts.coins.title')}</h2>
          <p className="ac-muted">{t('accounts.coins.text', { cap: formatNumber(exchangeCap) })}</p>
        </div>
        <div className="ac-coins-balance">
          <span className="ac-label">{t('accounts.coins.balance')}</span>
          <strong className="num" data-testid="coins-balance">
            {t('accounts.coins.count', { count: balance })}
          </strong>
        </div>
      </header>
      <form className="ac-coins-form" onSubmit={(e) => void submit(e)} noValidate>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-coins`}>
            {t('accounts.coins.amount', { id: account.account_id })}
          </label>
          <div className="ac-amount">
            <input
              id={`${id}-coins`}
              className="input num"
              inputMode="numeric"
              autoComplete="off"
              value={text}
              aria-invalid={Boolean(problem)}
              aria-describedby={`${id}-hint ${id}-error`}
              onChange={(e) => {
                setText(e.target.value);
                setError(null);
              }}
              data-testid="coins-amount"
            />
            {most > 0 && (
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                onClick={() => setText(String(most))}
                data-testid="coins-max"
              >
                {t('funding.withdrawal.max')}
              </button>
            )}
            <button
              type="submit"
              className="btn btn-primary btn-sm"
              disabled={busy || balance === 0}
              data-testid="coins-exchange"
            >
              {busy ? <span className="spinner st-spinner-sm" /> : t('accounts.coins.exchange')}
            </button>
          </div>
          <span className="ac-muted" id={`${id}-hint`}>
            {t('accounts.coins.rate', { currency: account.currency })}
          </span>
          <span className="field-error" id={`${id}-error`} data-testid="coins-amount-error">
            {problem}
          </span>
        </div>
        {error && (
          <div className="alert alert-error" role="alert" data-testid="coins-submit-error">
            {error}
          </div>
        )}
      </form>
      {items.length > 0 ? (
        <ul className="ac-coin-list" aria-label={t('accounts.coins.history')}>
          {items.map((entry) => (
            <li key={entry.id} className="ac-coin">
              <span>
                <Icon name={entry.coins > 0 ? 'plus' : 'exchange'} size={14} />
                {reasonText(t, entry.reason)}
              </span>
              <time className="ac-muted" dateTime={entry.createdAt}>
                {formatDate(new Date(entry.createdAt), TRADE_TIME)}
              </time>
              <span className="num ac-coin-amount" data-sign={entry.coins > 0 ? 1 : -1}>
                {formatNumber(entry.coins, { signDisplay: 'exceptZero' })}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="ac-muted">{t('accounts.coins.none')}</p>
      )}
    </section>
  );
}

function reasonText(t: (key: string) => string, reason: string): string {
  const key = `accounts.coins.reason.${reason}`;
  const text = t(key);
  return text === key ? t('accounts.coins.reason.other') : text;
}
