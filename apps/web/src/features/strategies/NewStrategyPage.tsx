import type { TStrategySpecRequest } from '@broker/contracts/strategy-routes';
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
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
import { BacktestPanel } from './BacktestPanel';
import { LevelsChart } from './LevelsChart';
import { AskPanel, Choice, LevelsLadder, problemText, StepTitle } from './parts';
import { shownData, type TAsk, type TMainAccount, type TPreview, useDebouncedAsk } from './strategy-api';
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
import { previewPlan } from './strategy-lines';
import { templateById, templateDraft } from './strategy-templates';

/** How long the inputs rest before the worst case is asked again. */
const PREVIEW_DEBOUNCE_MS = 450;

/**
 * Create a bot (issue 19): the kind, the main account that funds it, the investment and the kind's
 * parameters, checked as the server would, or a template's (`?template=grid-neutral`, its range from
 * today's price). As the inputs change, the chart redraws the levels, the trigger, take-profit and
 * stop-loss and the worst case's margin-call and stop-out prices over the symbol's candles; the worst
 * case is asked 450 ms after the inputs rest and the backtest 700 ms after (only the newest answers
 * kept). A configuration that breaches the margin rules cannot be submitted. Creating funds a new
 * strategy account from the main account; one idempotency key per submission, kept for its retries.
 */
export function Component() {
  const { t, lang, intl } = useI18n();
  const call = useCall();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const template = templateById(params.get('template'));
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

  const [draft, setDraft] = useState<TStrategyDraft>(() =>
    template ? templateDraft(template, null, intl) : EMPTY_STRATEGY_DRAFT,
  );
  const [touched, setTouched] = useState<Partial<Record<TDraftField, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const attempt = useRef<{ intent: string; key: string } | null>(null);

  const live = useQuotes(draft.symbol ? [draft.symbol] : [])[draft.symbol];
  const loaded =
    symbols.load.status === 'ready' ? symbols.load.data.find((q) => q.symbol === draft.symbol) : undefined;
  const quote = live ?? loaded ?? null;
  const price = quote?.bid ?? null;
  const digits = quote?.digits ?? 5;

  // A template's grid range comes from today's price: filled in once the price is known.
  const filled = useRef(false);
  useEffect(() => {
    if (!template || filled.current || !quote) return;
    filled.current = true;
    setDraft(templateDraft(template, { bid: quote.bid, digits: quote.digits }, intl));
  }, [template, quote, intl]);

  const checked = checkStrategyDraft(draft, intl, { price, balance: account?.balance ?? null });
  const problems = checked.ok ? {} : checked.problems;
  const request = checked.ok ? checked.request : null;
  const previewKey = account && !novice && request ? JSON.stringify([account.account_id, request]) : null;
  const preview = useDebouncedAsk<TPreview>(
    previewKey,
    (signal) => {
      const [account_id, current] = JSON.parse(previewKey as string) as [number, TStrategyRequest];
      return call('strategypreview', { account_id, ...current }, signal);
    },
    PREVIEW_DEBOUNCE_MS,
  );
  const previewed = shownData(preview);

  // The chart follows the inputs as soon as they draw something: the range (or the first order) even
  // before the investment is filled in, then the server's levels and the worst case.
  const drawable = checkStrategyDraft({ ...draft, investment: '1' }, intl);
  // Keyed by its content: a new spec object on each render must not redraw the lines.
  const chartSpecKey = drawable.ok ? JSON.stringify(drawable.request.spec) : null;
  const format = (value: string) => formatDecimal(intl, value, digits);
  const plan = useMemo(
    () =>
      previewPlan({
        spec: chartSpecKey ? (JSON.parse(chartSpecKey) as TStrategySpecRequest) : null,
        levels: previewed?.levels ?? null,
        worstCase: previewed?.worstCase ?? null,
        digits,
        t,
        format: (value) => formatDecimal(intl, value, digits),
      }),
    [chartSpecKey, previewed, digits, t, intl],
  );

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
    const intent = JSON.stringify([account.account_id, checked.request]);
    if (attempt.current?.intent !== intent) attempt.current = { intent, key: newIntentKey() };
    setBusy(true);
    setError(null);
    const answer = await callRoute(
      'strategycreate',
      { account_id: account.account_id, ...checked.request, idempotencyKey: attempt.current.key },
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
  const kindName = t(`strategy.kind.${draft.kind}`);

  return (
    <div className="ui-page sb-page" data-testid="strategy-new-page">
      <Link to={paths.strategies(lang)} className="ui-back">
        <Icon name="arrowLeft" size={16} />
        {t('strategy.list.title')}
      </Link>
      <div className="ui-head">
        <div className="ui-head-text">
          <h1>{t('strategy.new.title')}</h1>
          <p>{t('strategy.new.subtitle')}</p>
        </div>
        {template && (
          <span className="sb-template-tag" data-risk={template.risk} data-testid="strategy-template">
            {t('strategy.new.fromTemplate', {
              name: t(`strategy.risk.${template.risk}`),
              kind: t(`strategy.kind.${template.kind}`),
            })}
          </span>
        )}
      </div>
      {accounts.load.status === 'loading' && <Skeleton rows={3} height={56} testId="strategy-new-loading" />}
      {accounts.load.status === 'failed' && (
        <LoadError message={accounts.load.message} onRetry={() => void accounts.reload(false)} />
      )}
      {accounts.load.status === 'ready' && mains.length === 0 && (
        <div className="card empty-state ui-empty" data-testid="strategy-no-account">
          <div className="empty-state-icon">
            <Icon name="user" size={26} />
          </div>
          <h2>{t('strategy.new.noAccountTitle')}</h2>
          <p>{t('strategy.new.noAccount')}</p>
          <Link className="btn btn-primary" to={paths.personalCenter(lang, 'account/create')}>
            {t('strategy.new.openAccount')}
          </Link>
        </div>
      )}
      {account && (
        <form className="sb-create" onSubmit={submit} noValidate data-testid="strategy-form">
          <section className="card sb-chart-card sb-area-chart" aria-labelledby="sb-chart-title">
            <h2 id="sb-chart-title" className="sr-only">
              {t('strategy.chart.title')}
            </h2>
            <LevelsChart
              symbol={draft.symbol}
              lines={plan.lines}
              legend={plan.legend}
              summary={t('strategy.chart.summary', {
                kind: kindName,
                symbol: draft.symbol,
                count: plan.lines.length,
              })}
              testId="preview-chart"
            />
            {previewed && previewed.levels.length > 0 && (
              <details className="sb-more sb-levels-more">
                <summary>{t('strategy.levels.all', { count: previewed.levels.length })}</summary>
                <LevelsLadder levels={previewed.levels} price={price} testId="preview-levels" />
              </details>
            )}
          </section>
          <section className="card sb-form-main sb-area-settings" aria-labelledby="sb-params-title">
            <StepTitle id="sb-params-title" step={1}>
              {t('strategy.new.stepParams')}
            </StepTitle>
            <Choice
              legend={t('strategy.field.kind')}
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
              <SelectField
                label={t('strategy.field.symbol')}
                value={draft.symbol}
                onChange={(symbol) => set('symbol', symbol)}
                options={symbolOptions(
                  symbols.load.status === 'ready' ? symbols.load.data.map((q) => q.symbol) : [],
                  draft.symbol,
                )}
                hint={price ? t('strategy.new.price', { price: format(price) }) : null}
                testId="strategy-symbol"
              />
            </div>
            {quote?.status === 'closed' && (
              <p className="sb-note" data-tone="warning" data-testid="strategy-market-closed">
                {t('strategy.new.marketClosed')}
              </p>
            )}
            {grid ? (
              <>
                <Choice
                  legend={t('strategy.field.direction')}
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
                  value={draft.martingaleDirection}
                  onChange={(value) => set('martingaleDirection', value)}
                  options={(['long', 'short'] as const).map((value) => ({
                    value,
                    label: t(`strategy.direction.${value}`),
                  }))}
                  testId="strategy-direction"
                />
                <div className="sb-grid2">
                  {text('firstVolume', t('strategy.field.firstVolume'), {
                    suffix: t('strategy.unit.lots'),
                  })}
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
          </section>
          <PreviewPanel state={preview} currency={currency} />
          <BacktestPanel
            step={3}
            accountId={novice ? null : account.account_id}
            request={request}
            currency={currency}
          />
          <section className="card sb-confirm sb-area-start" aria-labelledby="sb-confirm-title">
            <StepTitle id="sb-confirm-title" step={4}>
              {t('strategy.new.stepConfirm')}
            </StepTitle>
            {request && (
              <p className="sb-muted sb-small" data-testid="strategy-funding">
                {t('strategy.new.funding', {
                  amount: moneyText(intl, request.investment, currency),
                  account: account.account_id,
                })}
              </p>
            )}
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
          </section>
        </form>
      )}
    </div>
  );
}

/** The symbols to choose from: the catalogue's, with the chosen one first while it loads. */
function symbolOptions(symbols: readonly string[], value: string): { value: string; label: string }[] {
  return (symbols.includes(value) ? symbols : [value, ...symbols]).map((symbol) => ({
    value: symbol,
    label: symbol,
  }));
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

/** The worst case (the price walked against the bot through and beyond its range or adds). */
function PreviewPanel({ state, currency }: { state: TAsk<TPreview>; currency: string }) {
  const { t, intl } = useI18n();
  const priceText = (value: string | null) =>
    value ? formatDecimal(intl, value) : t('strategy.worst.notReached');
  return (
    <AskPanel
      id="sb-preview-title"
      step={2}
      title={t('strategy.worst.title')}
      state={state}
      idle={t('strategy.worst.idle')}
      className="sb-area-worst"
      testId="strategy-preview"
    >
      {(data) => (
        <>
          {data.worstCase.breachesMarginRules ? (
            <div className="alert alert-error sb-breach" role="alert" data-testid="strategy-breach">
              <Icon name="alert" size={18} />
              <span>{t('strategy.worst.breach')}</span>
            </div>
          ) : (
            <p className="sb-note" data-tone="good" data-testid="strategy-worst-ok">
              <Icon name="check" size={16} />
              {t('strategy.worst.ok')}
            </p>
          )}
          <p className="ui-hint">
            {t('strategy.worst.explain', { to: formatDecimal(intl, data.worstCase.walkedTo) })}
          </p>
          <dl className="ui-figures sb-figures-2" data-testid="strategy-worst">
            <Figure label={t('strategy.worst.maxMargin')} testId="worst-margin">
              {moneyText(intl, data.worstCase.maxMargin, currency)}
            </Figure>
            <Figure label={t('strategy.worst.maxLoss')} testId="worst-loss">
              {moneyText(intl, data.worstCase.maxLoss, currency)}
            </Figure>
            <Figure label={t('strategy.worst.marginCall')} testId="worst-margin-call">
              {priceText(data.worstCase.marginCallPrice)}
            </Figure>
            <Figure label={t('strategy.worst.stopOut')} testId="worst-stop-out">
              {priceText(data.worstCase.stopOutPrice)}
            </Figure>
          </dl>
        </>
      )}
    </AskPanel>
  );
}
