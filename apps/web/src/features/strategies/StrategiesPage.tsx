import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { CurveChart } from '../../components/CurveChart';
import { Signed } from '../../components/Figure';
import { Icon } from '../../components/Icon';
import { LoadError, Skeleton } from '../../components/LoadStates';
import { StackTable, type TColumn } from '../../components/StackTable';
import { dateText } from '../../lib/date-text';
import { useI18n } from '../../lib/i18n';
import { formatDecimal } from '../../lib/market-format';
import { moneyText } from '../../lib/money';
import { percentText } from '../../lib/percent-text';
import { useCall, useLoad } from '../../lib/use-call';
import { BacktestFigures, curvePoints } from './BacktestPanel';
import {
  isWorking,
  StateBadge,
  StopButton,
  StopDialog,
  StrategyFigures,
  totalProfit,
  useMinuteClock,
} from './parts';
import {
  cachedBacktest,
  type TBacktest,
  type TBacktestDays,
  type TMainAccount,
  type TStrategy,
  useRefresh,
} from './strategy-api';
import { checkStrategyDraft, NOVICE_TRADE_TYPE, STRATEGY_ACCOUNT_TYPES } from './strategy-form';
import { RISKS, TEMPLATES, type TTemplate, templateDraft } from './strategy-templates';

/** The days a template card's backtest covers. */
const TEMPLATE_DAYS: TBacktestDays = 30;

/**
 * The strategy home (issue 19): templates of a grid and a martingale in three risk profiles, each with
 * its 30-day backtest on the trader's first usable account; the running bots (state, profits, runtime,
 * margin, Stop with the close-or-keep choice); and the history of stopped bots. The lists refresh every
 * few seconds while a bot works.
 */
export function Component() {
  const { t, lang } = useI18n();
  const call = useCall();
  const list = useLoad('bots', (signal) => call('strategylist', { includeClosed: true }, signal));
  const accounts = useLoad('accounts', (signal) => call('accountlist', {}, signal));
  const [stopping, setStopping] = useState<TStrategy | null>(null);
  const now = useMinuteClock();
  const bots = list.load.status === 'ready' ? list.load.data.items : [];
  const running = bots.filter(isWorking);
  const stopped = bots.filter((bot) => !isWorking(bot));
  useRefresh(() => void list.reload(true), running.length > 0 && stopping === null);

  return (
    <div className="ui-page sb-page" data-testid="strategies-page">
      <div className="ui-head">
        <div className="ui-head-text">
          <h1>{t('strategy.list.title')}</h1>
          <p>{t('strategy.home.subtitle')}</p>
        </div>
        <Link to={paths.newStrategy(lang)} className="btn btn-primary" data-testid="strategy-new">
          <Icon name="plus" size={16} />
          {t('strategy.list.create')}
        </Link>
      </div>

      <Templates accounts={accounts.load.status === 'ready' ? accounts.load.data : null} />

      <section className="ui-section" aria-labelledby="sb-running-title" data-testid="strategies-running">
        <div className="sb-section-head">
          <h2 id="sb-running-title">{t('strategy.home.running')}</h2>
          {list.load.status === 'ready' && <span className="sb-count">{running.length}</span>}
        </div>
        {list.load.status === 'loading' && <Skeleton rows={2} height={160} testId="strategies-loading" />}
        {list.load.status === 'failed' && (
          <LoadError
            message={list.load.message}
            onRetry={() => void list.reload(false)}
            testId="strategies-error"
          />
        )}
        {list.load.status === 'ready' && running.length === 0 && (
          <div className="card empty-state ui-empty sb-empty" data-testid="strategies-empty">
            <div className="empty-state-icon">
              <Icon name="bot" size={26} />
            </div>
            <h3>{t('strategy.list.emptyTitle')}</h3>
            <p>{t('strategy.list.emptyText')}</p>
            <Link to={paths.newStrategy(lang)} className="btn btn-primary">
              {t('strategy.list.create')}
            </Link>
          </div>
        )}
        {running.length > 0 && (
          <ul className="sb-cards">
            {running.map((strategy) => (
              <BotCard key={strategy.strategy_id} strategy={strategy} now={now} onStop={setStopping} />
            ))}
          </ul>
        )}
      </section>

      {list.load.status === 'ready' && (
        <section className="ui-section" aria-labelledby="sb-history-title" data-testid="strategies-history">
          <div className="sb-section-head">
            <h2 id="sb-history-title">{t('strategy.home.history')}</h2>
            <span className="sb-count">{stopped.length}</span>
          </div>
          {stopped.length === 0 ? (
            <p className="sb-muted card sb-quiet" data-testid="strategies-history-empty">
              {t('strategy.home.historyEmpty')}
            </p>
          ) : (
            <HistoryTable bots={stopped} onStop={setStopping} />
          )}
        </section>
      )}

      {stopping && (
        <StopDialog
          strategy={stopping}
          onClose={() => setStopping(null)}
          onDone={() => {
            setStopping(null);
            void list.reload();
          }}
        />
      )}
    </div>
  );
}

/** A running bot: what it is, its state, its whole profit and figures, Details and Stop. */
function BotCard({
  strategy,
  now,
  onStop,
}: {
  strategy: TStrategy;
  now: number;
  onStop(strategy: TStrategy): void;
}) {
  const { t, lang } = useI18n();
  return (
    <li className="card sb-card" data-testid="strategy-card" data-strategy={strategy.strategy_id}>
      <div className="sb-card-head">
        <div className="sb-card-title">
          <span className="sb-kind-icon" data-kind={strategy.kind} aria-hidden="true">
            <Icon name={strategy.kind === 'grid' ? 'chart' : 'bolt'} size={18} />
          </span>
          <div>
            <h3>
              <Link to={paths.strategy(lang, strategy.strategy_id)} data-testid="strategy-link">
                {t(`strategy.kind.${strategy.kind}`)} · {strategy.symbol}
              </Link>
            </h3>
            <span className="sb-muted sb-small">
              {t('strategy.list.number', { id: strategy.strategy_id })} ·{' '}
              {t(`strategy.direction.${strategy.params.params.direction}`)}
            </span>
          </div>
        </div>
        <StateBadge state={strategy.state} />
      </div>
      <StrategyFigures strategy={strategy} now={now} />
      <div className="ui-actions sb-card-actions">
        <Link to={paths.strategy(lang, strategy.strategy_id)} className="btn btn-secondary btn-sm">
          {t('strategy.list.details')}
        </Link>
        <StopButton strategy={strategy} onStop={() => onStop(strategy)} />
      </div>
    </li>
  );
}

/** Stopped bots, newest first: a table on a wide screen, labelled cards on a phone. */
function HistoryTable({ bots, onStop }: { bots: TStrategy[]; onStop(strategy: TStrategy): void }) {
  const { t, lang, intl } = useI18n();
  const money = (value: string, currency: string) => (
    <Signed value={value}>{moneyText(intl, value, currency, true)}</Signed>
  );
  const columns: TColumn<TStrategy>[] = [
    {
      key: 'bot',
      label: t('strategy.history.bot'),
      cell: (bot) => (
        <>
          <Link to={paths.strategy(lang, bot.strategy_id)} className="sb-strong-link">
            {t(`strategy.kind.${bot.kind}`)} · {bot.symbol}
          </Link>
          <span className="sb-muted sb-small sb-block">
            {t('strategy.list.number', { id: bot.strategy_id })}
          </span>
        </>
      ),
    },
    {
      key: 'state',
      label: t('strategy.field.state'),
      cell: (bot) => (
        <span className="sb-state-cell">
          <StateBadge state={bot.state} />
          {bot.stopReason && (
            <span className="sb-muted sb-small" data-testid="strategy-stop-reason">
              {t(`strategy.stopReason.${bot.stopReason}`)}
            </span>
          )}
        </span>
      ),
    },
    {
      key: 'total',
      label: t('strategy.field.total'),
      numeric: true,
      cell: (bot) => money(totalProfit(bot).profit, bot.currency),
    },
    {
      key: 'realized',
      label: t('strategy.field.realized'),
      numeric: true,
      cell: (bot) => money(bot.realizedProfit, bot.currency),
    },
    {
      key: 'trades',
      label: t('strategy.field.trades'),
      numeric: true,
      cell: (bot) => new Intl.NumberFormat(intl).format(bot.closedTrades),
    },
    { key: 'created', label: t('strategy.history.created'), cell: (bot) => dateText(intl, bot.createdAt) },
    {
      key: 'actions',
      label: t('strategy.history.actions'),
      labelHidden: true,
      className: 'sb-row-actions',
      cell: (bot) => (
        <>
          <StopButton strategy={bot} onStop={() => onStop(bot)} />
          <Link
            to={paths.strategy(lang, bot.strategy_id)}
            className="btn btn-ghost btn-sm"
            aria-label={t('strategy.history.open', { id: bot.strategy_id })}
          >
            {t('strategy.list.details')}
          </Link>
        </>
      ),
    },
  ];
  return (
    <div className="card sb-table-card">
      <StackTable
        rows={bots}
        columns={columns}
        rowKey={(bot) => bot.strategy_id}
        rowProps={(bot) => ({ 'data-testid': 'strategy-history-row', 'data-strategy': bot.strategy_id })}
        className="sb-history"
        testId="strategy-history-table"
      />
    </div>
  );
}

/**
 * The templates, grouped by bot: each card backtested over 30 days on the trader's first usable main
 * account (standard mode, demo or real), with a grid's range from the catalogue's bid when the page
 * loaded (so the run is the same one while the page stays).
 */
function Templates({ accounts }: { accounts: TMainAccount[] | null }) {
  const { t } = useI18n();
  const call = useCall();
  const quotes = useLoad('quotes', (signal) => call('currencyall', {}, signal));
  const account =
    accounts?.find(
      (a) => STRATEGY_ACCOUNT_TYPES.includes(a.account_type) && a.trade_type !== NOVICE_TRADE_TYPE,
    ) ?? null;
  const quoteOf = (symbol: string) =>
    quotes.load.status === 'ready' ? (quotes.load.data.find((q) => q.symbol === symbol) ?? null) : null;
  return (
    <section className="ui-section" aria-labelledby="sb-templates-title" data-testid="strategy-templates">
      <div className="sb-section-head">
        <h2 id="sb-templates-title">{t('strategy.template.title')}</h2>
      </div>
      <p className="sb-muted sb-small">
        {accounts !== null && account === null
          ? t('strategy.template.noAccount')
          : t('strategy.template.subtitle', { days: TEMPLATE_DAYS })}
      </p>
      {(['grid', 'martingale'] as const).map((kind) => (
        <div key={kind} className="sb-template-group">
          <h3 className="sb-group-title">
            {t(`strategy.kind.${kind}`)} · {TEMPLATES.find((x) => x.kind === kind)?.symbol}
            <span className="sb-muted sb-small">{t(`strategy.template.${kind}Hint`)}</span>
          </h3>
          <ul className="sb-templates">
            {RISKS.map((risk) => {
              const template = TEMPLATES.find((x) => x.kind === kind && x.risk === risk) as TTemplate;
              return (
                <TemplateCard
                  key={template.id}
                  template={template}
                  account={account}
                  quote={quoteOf(template.symbol)}
                  quotesFailed={quotes.load.status === 'failed'}
                />
              );
            })}
          </ul>
        </div>
      ))}
    </section>
  );
}

/** One template: its risk, its parameters in a line, its backtest, and the way to the form. */
function TemplateCard({
  template,
  account,
  quote,
  quotesFailed,
}: {
  template: TTemplate;
  account: TMainAccount | null;
  quote: { bid: string; digits: number } | null;
  quotesFailed: boolean;
}) {
  const { t, lang, intl } = useI18n();
  const call = useCall();
  const draft = templateDraft(template, quote, 'en-US');
  const checked = quote ? checkStrategyDraft(draft, 'en-US') : null;
  const input =
    account && checked?.ok
      ? { account_id: account.account_id, ...checked.request, days: TEMPLATE_DAYS }
      : null;
  const backtest = useLoad<TBacktest>(input ? JSON.stringify(input) : null, (signal) =>
    cachedBacktest(input as NonNullable<typeof input>, (asked) => call('strategybacktest', asked, signal)),
  );
  const percent = (value: string) => percentText(intl, value);
  const summary =
    template.kind === 'grid'
      ? t('strategy.template.gridSummary', {
          range: percent(String(template.rangeBp / 100)),
          grids: template.grids,
          volume: formatDecimal(intl, template.volumePerGrid, 2),
        })
      : t('strategy.template.martingaleSummary', {
          step: percent(template.stepPercent),
          multiplier: formatDecimal(intl, template.multiplier),
          adds: template.maxAdds,
          takeProfit: percent(template.takeProfitPercent),
        });
  const currency = account?.currency ?? 'USD';
  return (
    <li className="card sb-template" data-testid="strategy-template-card" data-template={template.id}>
      <div className="sb-template-head">
        <span className="sb-risk" data-risk={template.risk}>
          <span className="sb-risk-bars" aria-hidden="true">
            <span />
            <span />
            <span />
          </span>
          {t(`strategy.risk.${template.risk}`)}
        </span>
        <span className="sb-muted sb-small">
          {t('strategy.template.investment', { amount: moneyText(intl, template.investment, currency) })}
        </span>
      </div>
      <p className="sb-template-summary">{summary}</p>
      <div className="sb-template-result" data-state={input ? backtest.load.status : 'none'}>
        {!account && <p className="sb-muted sb-small">{t('strategy.template.noBacktest')}</p>}
        {account && quotesFailed && <p className="sb-muted sb-small">{t('strategy.template.noPrice')}</p>}
        {input && backtest.load.status === 'loading' && <Skeleton rows={1} height={96} />}
        {input && backtest.load.status === 'failed' && (
          <div className="sb-template-error" role="alert">
            <span className="sb-small">{backtest.load.message}</span>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={() => void backtest.reload(false)}
            >
              {t('common.retry')}
            </button>
          </div>
        )}
        {input && backtest.load.status === 'ready' && (
          <>
            <BacktestFigures backtest={backtest.load.data} currency={currency} compact />
            <CurveChart
              points={curvePoints(backtest.load.data)}
              label={t('strategy.backtest.curve')}
              height={56}
              compact
            />
          </>
        )}
      </div>
      <Link
        to={`${paths.newStrategy(lang)}?template=${template.id}`}
        className="btn btn-secondary btn-sm sb-template-use"
        data-testid="strategy-template-use"
      >
        {t('strategy.template.use')}
        <span className="sr-only">
          {' '}
          ({t(`strategy.kind.${template.kind}`)} · {t(`strategy.risk.${template.risk}`)})
        </span>
      </Link>
    </li>
  );
}
