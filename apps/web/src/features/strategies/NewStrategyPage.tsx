import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../app/paths';
import { Figure } from '../../components/Figure';
import { Icon } from '../../components/Icon';
import { LoadError, Skeleton } from '../../components/LoadStates';
import { SelectField } from '../../components/SelectField';
import { TextField } from '../../components/TextField';
import { callRoute } from '../../lib/api';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { formatDecimal } from '../../lib/market-format';
import { useQuotes } from '../../lib/market-stream';
import { moneyText, newIntentKey } from '../../lib/money';
import { useCall, useLoad } from '../../lib/use-call';
import { Choice, LevelsLadder, problemText } from './parts';
import type { TMainAccount, TPreview } from './strategy-api';
import {
  checkStrategyDraft,
  EMPTY_STRATEGY_DRAFT,
  GRIDS,
  MAX_ADDS,
  MULTIPLIER,
  NOVICE_TRADE_TYPE,
  STRATEGY_ACCOUNT_TYPES,
  type TDraftField,
  type TStrategyDraft,
  type TStrategyRequest,
} from './strategy-form';

/** How long the inputs rest before the worst case is asked again. */
const PREVIEW_DEBOUNCE_MS = 450;

/**
 * Create a bot (issue 19): the kind, the main account that funds it, the investment and the kind's
 * parameters, checked as the server would; the levels and the worst case are asked again 450 ms after
 * the inputs rest (only the newest answer kept); a configuration that breaches the margin rules cannot
 * be submitted. One idempotency key per submission, kept for the retries of a lost answer.
 */
export function Component() {
  const { t, lang, intl } = useI18n();
  const call = useCall();
  const navigate = useNavigate();
  const accounts = useLoad('accounts', (signal) => call('accountlist', {}, signal));
  const symbols = useLoad('symbols', (signal) => call('currencyall', {}, signal));
  const mains =
    accounts.load.status === 'ready'
      ? accounts.load.data.filter((a) => STRATEGY_ACCOUNT_TYPES.includes(a.account_type))
      : [];
  const usable = mains.filter((a) => a.trade_type !== NOVICE_TRADE_TYPE);
  const [accountId, setAccountId] = useState<number | null>(null);
  const account = mains.find((a) => a.account_id === accountId) ?? usable[0] ?? mains[0] ?? null;
  const novice = account !== null && account.trade_type === NOVICE_TRADE_TYPE;

  const [draft, setDraft] = useState<TStrategyDraft>(EMPTY_STRATEGY_DRAFT);
  const [touched, setTouched] = useState<Partial<Record<TDraftField, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const attempt = useRef<{ intent: string; key: string } | null>(null);

  const checked = checkStrategyDraft(draft, intl);
  const problems = checked.ok ? {} : checked.problems;
  const preview = usePreview(
    account && !novice ? account.account_id : null,
    checked.ok ? checked.request : null,
  );
  const quote = useQuotes(draft.symbol ? [draft.symbol] : [])[draft.symbol];
  const loadedQuote =
    symbols.load.status === 'ready' ? symbols.load.data.find((q) => q.symbol === draft.symbol) : undefined;
  const price = quote?.bid ?? loadedQuote?.bid ?? null;

  const set = <K extends keyof TStrategyDraft>(field: K, value: TStrategyDraft[K]) => {
    setDraft((current) => ({ ...current, [field]: value }));
    setTouched((current) => ({ ...current, [field]: true }));
    setError(null);
  };
  const problem = (field: TDraftField) =>
    submitted || (touched[field] && draft[field] !== '') ? problemText(t, problems[field]) : null;
  const text = (
    field: TDraftField,
    label: string,
    extra: { suffix?: string; hint?: string; inputMode?: 'numeric' } = {},
  ) => (
    <TextField
      name={field}
      label={label}
      value={draft[field]}
      onChange={(value) => set(field, value)}
      problem={problem(field)}
      testId={`strategy-${field}`}
      {...extra}
    />
  );

  const breaches = preview.status === 'ready' && preview.data.worstCase.breachesMarginRules;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (!checked.ok || !account || novice || busy || breaches) return;
    const request = checked.request;
    const intent = JSON.stringify([account.account_id, request]);
    if (attempt.current?.intent !== intent) attempt.current = { intent, key: newIntentKey() };
    setBusy(true);
    setError(null);
    const answer = await callRoute(
      'strategycreate',
      { account_id: account.account_id, ...request, idempotencyKey: attempt.current.key },
      lang,
    );
    setBusy(false);
    if (answer.succeed && answer.Data) {
      attempt.current = null;
      navigate(paths.strategy(lang, answer.Data.strategy_id));
      return;
    }
    // A refusal is final for this key; a lost answer (code 0) is retried with the same key.
    if (answer.code !== 0) attempt.current = null;
    setError(failureText(answer, t));
  };

  const grid = draft.kind === 'grid';
  const currency = account?.currency ?? '';
  const percent = '%';

  return (
    <div className="ui-page sb-page" data-testid="strategy-new-page">
      <Link to={paths.strategies(lang)} className="ui-back">
        <Icon name="arrowLeft" size={16} />
        {t('strategy.list.title')}
      </Link>
      <div className="ui-head">
        <div className="ui-head-text">
          <h1>{t('strategy.new.title')}</h1>
          <p className="sb-muted">{t('strategy.new.subtitle')}</p>
        </div>
      </div>
      {accounts.load.status === 'loading' && <Skeleton rows={3} height={56} testId="strategy-new-loading" />}
      {accounts.load.status === 'failed' && (
        <LoadError message={accounts.load.message} onRetry={() => void accounts.reload(false)} />
      )}
      {accounts.load.status === 'ready' && mains.length === 0 && (
        <div className="card empty-state ui-empty" data-testid="strategy-no-account">
          <h2>{t('strategy.new.noAccountTitle')}</h2>
          <p>{t('strategy.new.noAccount')}</p>
          <Link className="btn btn-primary" to={paths.personalCenter(lang, 'account/create')}>
            {t('strategy.new.openAccount')}
          </Link>
        </div>
      )}
      {account && (
        <form className="sb-form" onSubmit={submit} noValidate data-testid="strategy-form">
          <div className="sb-form-main card">
            <Choice
              legend={t('strategy.field.kind')}
              name="kind"
              value={draft.kind}
              onChange={(kind) => set('kind', kind)}
              options={[
                { value: 'grid', label: t('strategy.kind.grid') },
                { value: 'martingale', label: t('strategy.kind.martingale') },
              ]}
              testId="strategy-kind"
            />
            <p className="ui-hint">{t(grid ? 'strategy.new.gridHint' : 'strategy.new.martingaleHint')}</p>
            <AccountChoice accounts={mains} value={account.account_id} onChange={setAccountId} />
            {novice && (
              <div className="alert sb-warning" role="alert" data-testid="strategy-novice">
                {t('strategy.new.novice')}
              </div>
            )}
            <div className="sb-grid2">
              {text('investment', t('strategy.field.investment'), {
                suffix: currency,
                hint: t('strategy.new.balance', { balance: moneyText(intl, account.balance, currency) }),
              })}
              <SymbolField
                value={draft.symbol}
                symbols={
                  symbols.load.status === 'ready' ? symbols.load.data.map((q) => q.symbol) : [draft.symbol]
                }
                onChange={(symbol) => set('symbol', symbol)}
                price={price}
              />
            </div>
            {grid ? (
              <>
                <Choice
                  legend={t('strategy.field.direction')}
                  name="gridDirection"
                  value={draft.gridDirection}
                  onChange={(value) => set('gridDirection', value)}
                  options={(['long', 'short', 'neutral'] as const).map((value) => ({
                    value,
                    label: t(`strategy.direction.${value}`),
                  }))}
                  testId="strategy-direction"
                />
                <div className="sb-grid2">
                  {text('lowerPrice', t('strategy.field.lowerPrice'))}
                  {text('upperPrice', t('strategy.field.upperPrice'))}
                  {text('grids', t('strategy.field.grids'), {
                    inputMode: 'numeric',
                    hint: t('strategy.new.range', { min: GRIDS.min, max: GRIDS.max }),
                  })}
                  {text('volumePerGrid', t('strategy.field.volumePerGrid'), {
                    suffix: t('strategy.unit.lots'),
                  })}
                </div>
                <Choice
                  legend={t('strategy.field.spacing')}
                  name="spacing"
                  value={draft.spacing}
                  onChange={(value) => set('spacing', value)}
                  options={(['arithmetic', 'geometric'] as const).map((value) => ({
                    value,
                    label: t(`strategy.spacing.${value}`),
                  }))}
                />
                <details className="sb-more">
                  <summary>{t('strategy.new.more')}</summary>
                  <div className="sb-more-body">
                    {text('triggerPrice', t('strategy.field.triggerOptional'), {
                      hint: t('strategy.new.triggerHint'),
                    })}
                    <Choice
                      legend={t('strategy.field.exitMode')}
                      name="exitMode"
                      value={draft.exitMode}
                      onChange={(value) => set('exitMode', value)}
                      options={[
                        { value: 'price', label: t('strategy.exit.price') },
                        { value: 'percent', label: t('strategy.exit.percent') },
                      ]}
                    />
                    <div className="sb-grid2">
                      {text('takeProfit', t('strategy.field.takeProfitOptional'), {
                        ...(draft.exitMode === 'percent' ? { suffix: percent } : {}),
                      })}
                      {text('stopLoss', t('strategy.field.stopLossOptional'), {
                        ...(draft.exitMode === 'percent' ? { suffix: percent } : {}),
                      })}
                    </div>
                    <label className="ui-check">
                      <input
                        type="checkbox"
                        checked={draft.gridDirection === 'long' && draft.trailingUp}
                        disabled={draft.gridDirection !== 'long'}
                        onChange={(event) => set('trailingUp', event.target.checked)}
                      />
                      <span>
                        {t('strategy.field.trailingUp')}
                        <span className="ui-hint">{t('strategy.new.trailingHint')}</span>
                      </span>
                    </label>
                    <Choice
                      legend={t('strategy.field.outOfRange')}
                      name="outOfRange"
                      value={draft.outOfRange}
                      onChange={(value) => set('outOfRange', value)}
                      options={(['keep', 'stop'] as const).map((value) => ({
                        value,
                        label: t(`strategy.outOfRange.${value}`),
                      }))}
                    />
                  </div>
                </details>
              </>
            ) : (
              <>
                <Choice
                  legend={t('strategy.field.direction')}
                  name="martingaleDirection"
                  value={draft.martingaleDirection}
                  onChange={(value) => set('martingaleDirection', value)}
                  options={(['long', 'short'] as const).map((value) => ({
                    value,
                    label: t(`strategy.direction.${value}`),
                  }))}
                  testId="strategy-direction"
                />
                <div className="sb-grid2">
                  {text('firstVolume', t('strategy.field.firstVolume'), { suffix: t('strategy.unit.lots') })}
                  {text('stepPercent', t('strategy.field.step'), { suffix: percent })}
                  {text('multiplier', t('strategy.field.multiplier'), {
                    hint: t('strategy.new.range', { min: MULTIPLIER.min, max: MULTIPLIER.max }),
                  })}
                  {text('maxAdds', t('strategy.field.maxAdds'), {
                    inputMode: 'numeric',
                    hint: t('strategy.new.range', { min: MAX_ADDS.min, max: MAX_ADDS.max }),
                  })}
                  {text('martingaleTakeProfit', t('strategy.field.takeProfit'), { suffix: percent })}
                  {text('martingaleStopLoss', t('strategy.field.stopLossOptional'), { suffix: percent })}
                </div>
                <Choice
                  legend={t('strategy.field.cycle')}
                  name="cycle"
                  value={draft.cycle}
                  onChange={(value) => set('cycle', value)}
                  options={(['repeat', 'stop'] as const).map((value) => ({
                    value,
                    label: t(`strategy.cycle.${value}`),
                  }))}
                />
                {text('triggerPrice', t('strategy.field.triggerOptional'), {
                  hint: t('strategy.new.triggerHint'),
                })}
              </>
            )}
          </div>
          <aside className="sb-form-side">
            <PreviewPanel state={preview} currency={currency} price={price} />
            {error && (
              <div className="alert alert-error" role="alert" data-testid="strategy-create-error">
                {error}
              </div>
            )}
            {submitted && !checked.ok && (
              <p className="field-error" role="alert">
                {t('strategy.problem.fix')}
              </p>
            )}
            <button
              type="submit"
              className="btn btn-primary sb-submit"
              disabled={busy || novice || breaches}
              data-testid="strategy-create"
            >
              {busy ? <span className="spinner ui-spinner" /> : <Icon name="bot" size={16} />}
              {t('strategy.new.submit')}
            </button>
          </aside>
        </form>
      )}
    </div>
  );
}

function AccountChoice({
  accounts,
  value,
  onChange,
}: {
  accounts: TMainAccount[];
  value: number;
  onChange(id: number): void;
}) {
  const { t, intl } = useI18n();
  return (
    <SelectField
      label={t('strategy.field.account')}
      value={value}
      onChange={onChange}
      options={accounts.map((account) => ({
        value: account.account_id,
        label: t('strategy.new.accountOption', {
          id: account.account_id,
          type: t(`accounts.type.${account.account_type}`),
          mode: t(`accounts.mode.${account.trade_type === NOVICE_TRADE_TYPE ? 1 : 2}`),
          balance: moneyText(intl, account.balance, account.currency),
        }),
      }))}
      testId="strategy-account"
    />
  );
}

function SymbolField({
  value,
  symbols,
  onChange,
  price,
}: {
  value: string;
  symbols: string[];
  onChange(symbol: string): void;
  price: string | null;
}) {
  const { t, intl } = useI18n();
  return (
    <SelectField
      label={t('strategy.field.symbol')}
      value={value}
      onChange={onChange}
      options={(symbols.includes(value) ? symbols : [value, ...symbols]).map((symbol) => ({
        value: symbol,
        label: symbol,
      }))}
      hint={price ? t('strategy.new.price', { price: formatDecimal(intl, price) }) : null}
      testId="strategy-symbol"
    />
  );
}

type TPreviewState =
  | { status: 'idle' }
  | { status: 'loading'; last: TPreview | null }
  | { status: 'ready'; data: TPreview }
  | { status: 'failed'; message: string };

/** The levels and worst case of the current inputs, asked once they rest; only the newest answer kept. */
function usePreview(accountId: number | null, request: TStrategyRequest | null): TPreviewState {
  const call = useCall();
  const [state, setState] = useState<TPreviewState>({ status: 'idle' });
  const key = accountId !== null && request ? JSON.stringify([accountId, request]) : null;
  useEffect(() => {
    if (key === null) {
      setState({ status: 'idle' });
      return;
    }
    const [account_id, current] = JSON.parse(key) as [number, TStrategyRequest];
    setState((previous) => ({
      status: 'loading',
      last:
        previous.status === 'ready' ? previous.data : previous.status === 'loading' ? previous.last : null,
    }));
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      const answer = await call('strategypreview', { account_id, ...current }, controller.signal);
      if (controller.signal.aborted) return;
      setState(
        'ok' in answer
          ? { status: 'ready', data: answer.data }
          : { status: 'failed', message: answer.message },
      );
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key, call]);
  return state;
}

/** The worst case (the price walked against the bot) and its levels. */
function PreviewPanel({
  state,
  currency,
  price,
}: {
  state: TPreviewState;
  currency: string;
  price: string | null;
}) {
  const { t, intl } = useI18n();
  const data = state.status === 'ready' ? state.data : state.status === 'loading' ? state.last : null;
  const priceText = (value: string | null) =>
    value ? formatDecimal(intl, value) : t('strategy.worst.notReached');
  return (
    <section
      className="card sb-preview"
      aria-labelledby="sb-preview-title"
      aria-busy={state.status === 'loading'}
      data-testid="strategy-preview"
      data-state={state.status}
    >
      <h2 id="sb-preview-title">{t('strategy.worst.title')}</h2>
      {state.status === 'idle' && <p className="sb-muted">{t('strategy.worst.idle')}</p>}
      {state.status === 'failed' && (
        <p className="sb-danger" role="alert" data-testid="strategy-preview-error">
          {state.message}
        </p>
      )}
      {state.status === 'loading' && !data && <Skeleton rows={2} height={40} />}
      {data && (
        <div className="sb-preview-body" data-stale={state.status === 'loading' ? 'true' : undefined}>
          {data.worstCase.breachesMarginRules && (
            <div className="alert alert-error sb-breach" role="alert" data-testid="strategy-breach">
              <Icon name="alert" size={18} />
              <span>{t('strategy.worst.breach')}</span>
            </div>
          )}
          <p className="ui-hint">
            {t('strategy.worst.explain', { to: formatDecimal(intl, data.worstCase.walkedTo) })}
          </p>
          <dl className="ui-figures" data-testid="strategy-worst">
            <Figure label={t('strategy.worst.maxMargin')} testId="worst-margin">
              {moneyText(intl, data.worstCase.maxMargin, currency)}
            </Figure>
            <Figure label={t('strategy.worst.marginCall')} testId="worst-margin-call">
              {priceText(data.worstCase.marginCallPrice)}
            </Figure>
            <Figure label={t('strategy.worst.stopOut')} testId="worst-stop-out">
              {priceText(data.worstCase.stopOutPrice)}
            </Figure>
            <Figure label={t('strategy.worst.maxLoss')} testId="worst-loss">
              {moneyText(intl, data.worstCase.maxLoss, currency)}
            </Figure>
          </dl>
          <h3 className="sb-subtitle">{t('strategy.levels.title')}</h3>
          <LevelsLadder levels={data.levels} price={price} testId="preview-levels" />
        </div>
      )}
    </section>
  );
}
