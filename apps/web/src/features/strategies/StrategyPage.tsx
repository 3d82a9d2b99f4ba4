import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { paths } from '../../app/paths';
import { Icon } from '../../components/Icon';
import { LoadError, Skeleton } from '../../components/LoadStates';
import { dateText } from '../../lib/date-text';
import { useI18n } from '../../lib/i18n';
import { formatDecimal } from '../../lib/market-format';
import { useQuotes } from '../../lib/market-stream';
import { useCall, useLoad } from '../../lib/use-call';
import { LevelsLadder, ParamsList, StateBadge, StopDialog, StrategyFigures, useMinuteClock } from './parts';

/** Log actions the catalog names (docs/strategies.md, events); others show as written. */
const LOG_ACTIONS = new Set([
  'started',
  'waiting',
  'triggered',
  'order_placed',
  'order_refused',
  'order_cancelled',
  'filled',
  'position_closed',
  'round_started',
  'add_placed',
  'added',
  'take_profit_moved',
  'round_closed',
  'trailed',
  'stopped',
]);

/** Why a bot stopped (docs/strategies.md, stopping). */
const STOP_REASONS = new Set([
  'client',
  'take_profit',
  'stop_loss',
  'stop_out',
  'symbol_disabled',
  'out_of_range',
  'cycle_done',
  'account_closed',
]);

/** Close reasons the history's catalog names. */
const HISTORY_REASONS = new Set(['1', '2', '3', '4', '5', '6', '7']);

/** One bot (issue 19): its figures, parameters, levels with today's price, and its log; Stop. */
export function Component() {
  const { t, lang, intl } = useI18n();
  const call = useCall();
  const id = Number(useParams().strategyId);
  const detail = useLoad(`detail:${id}`, (signal) => call('strategydetail', { strategy_id: id }, signal));
  const [stopping, setStopping] = useState(false);
  const now = useMinuteClock();
  const strategy = detail.load.status === 'ready' ? detail.load.data.strategy : null;
  const detailText = (action: string, detail: string | null) => {
    if (detail === null) return '—';
    if (action === 'stopped' && STOP_REASONS.has(detail)) return t(`strategy.stopReason.${detail}`);
    if (action === 'started' && (detail === 'grid' || detail === 'martingale'))
      return t(`strategy.kind.${detail}`);
    // A closed position's detail is its close reason (spec 4), which the history already names.
    if (action === 'position_closed' && HISTORY_REASONS.has(detail)) return t(`history.reason.${detail}`);
    return detail;
  };
  const quote = useQuotes(strategy ? [strategy.symbol] : [])[strategy?.symbol ?? ''];

  return (
    <div className="ui-page sb-page" data-testid="strategy-page">
      <Link to={paths.strategies(lang)} className="ui-back">
        <Icon name="arrowLeft" size={16} />
        {t('strategy.list.title')}
      </Link>
      {detail.load.status === 'loading' && <Skeleton rows={3} height={120} testId="strategy-loading" />}
      {detail.load.status === 'failed' && (
        <LoadError
          message={detail.load.message}
          onRetry={() => void detail.reload(false)}
          testId="strategy-error"
        />
      )}
      {detail.load.status === 'ready' && strategy && (
        <>
          <div className="ui-head">
            <div className="ui-head-text">
              <h1>
                {t(`strategy.kind.${strategy.kind}`)} · {strategy.symbol}
              </h1>
              <p className="sb-muted">
                {t('strategy.list.number', { id: strategy.strategy_id })} ·{' '}
                {t('strategy.detail.created', { date: dateText(intl, strategy.createdAt, true) })}
              </p>
            </div>
            <div className="sb-head-side">
              <StateBadge state={strategy.state} />
              {(strategy.state === 'running' || strategy.state === 'waiting') && (
                <button
                  type="button"
                  className="btn btn-secondary btn-sm sb-danger"
                  onClick={() => setStopping(true)}
                  data-testid="strategy-stop"
                >
                  {t('strategy.action.stop')}
                </button>
              )}
            </div>
          </div>
          {strategy.stopReason && (
            <p className="sb-muted" data-testid="strategy-stop-reason">
              {t(`strategy.stopReason.${strategy.stopReason}`)}
            </p>
          )}
          <section className="card ui-section" aria-labelledby="sb-figures-title">
            <h2 id="sb-figures-title">{t('strategy.detail.figures')}</h2>
            <StrategyFigures strategy={strategy} now={now} />
          </section>
          <div className="sb-columns">
            <section className="card ui-section" aria-labelledby="sb-params-title">
              <h2 id="sb-params-title">{t('strategy.detail.params')}</h2>
              <ParamsList strategy={strategy} />
            </section>
            <section className="card ui-section" aria-labelledby="sb-levels-title">
              <h2 id="sb-levels-title">{t('strategy.levels.title')}</h2>
              <LevelsLadder levels={strategy.levels} price={quote?.bid ?? null} />
            </section>
          </div>
          <section className="card ui-section" aria-labelledby="sb-log-title">
            <h2 id="sb-log-title">{t('strategy.log.title')}</h2>
            {detail.load.data.log.length === 0 ? (
              <p className="sb-muted">{t('strategy.log.empty')}</p>
            ) : (
              <table className="ui-table ui-table-stack sb-log" data-testid="strategy-log">
                <thead>
                  <tr>
                    <th scope="col">{t('strategy.log.time')}</th>
                    <th scope="col">{t('strategy.log.action')}</th>
                    <th scope="col">{t('strategy.log.price')}</th>
                    <th scope="col">{t('strategy.log.detail')}</th>
                  </tr>
                </thead>
                <tbody>
                  {detail.load.data.log.map((entry, i) => (
                    <tr key={`${entry.time}-${i}`}>
                      <td data-label={t('strategy.log.time')} className="num">
                        {dateText(intl, entry.time, true)}
                      </td>
                      <td data-label={t('strategy.log.action')} data-action={entry.action}>
                        {LOG_ACTIONS.has(entry.action) ? t(`strategy.log.${entry.action}`) : entry.action}
                      </td>
                      <td data-label={t('strategy.log.price')} className="num">
                        {entry.price ? formatDecimal(intl, entry.price) : '—'}
                      </td>
                      <td data-label={t('strategy.log.detail')} className="sb-log-detail">
                        {detailText(entry.action, entry.detail)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
          {stopping && (
            <StopDialog
              strategy={strategy}
              onClose={() => setStopping(false)}
              onDone={() => {
                setStopping(false);
                void detail.reload();
              }}
            />
          )}
        </>
      )}
    </div>
  );
}
