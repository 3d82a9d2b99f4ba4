import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../app/paths';
import { Icon } from '../../components/Icon';
import { LoadError, Skeleton } from '../../components/LoadStates';
import { useI18n } from '../../lib/i18n';
import { useCall, useLoad } from '../../lib/use-call';
import { StateBadge, StopDialog, StrategyFigures, useMinuteClock } from './parts';
import type { TStrategy } from './strategy-api';

/**
 * The trader's bots (issue 19): one card per bot with its state, money, profits and holdings, a Stop
 * button (close or keep the positions, then what came back), and the stopped ones on request.
 */
export function Component() {
  const { t, lang } = useI18n();
  const call = useCall();
  const [params, setParams] = useSearchParams();
  const [includeClosed, setIncludeClosed] = useState(() => params.get('stopped') === '1');
  const list = useLoad(`list:${includeClosed}`, (signal) => call('strategylist', { includeClosed }, signal));
  const [stopping, setStopping] = useState<TStrategy | null>(null);
  const now = useMinuteClock();

  return (
    <div className="ui-page sb-page" data-testid="strategies-page">
      <div className="ui-head">
        <div className="ui-head-text">
          <h1>{t('strategy.list.title')}</h1>
          <p className="sb-muted">{t('strategy.list.subtitle')}</p>
        </div>
        <Link to={paths.newStrategy(lang)} className="btn btn-primary" data-testid="strategy-new">
          <Icon name="plus" size={16} />
          {t('strategy.list.create')}
        </Link>
      </div>
      <div className="sb-toolbar">
        <label className="ui-check">
          <input
            type="checkbox"
            checked={includeClosed}
            onChange={(event) => {
              setIncludeClosed(event.target.checked);
              setParams(event.target.checked ? { stopped: '1' } : {}, { replace: true });
            }}
            data-testid="strategies-include-closed"
          />
          <span>{t('strategy.list.showStopped')}</span>
        </label>
      </div>
      {list.load.status === 'loading' && <Skeleton rows={2} height={180} testId="strategies-loading" />}
      {list.load.status === 'failed' && (
        <LoadError
          message={list.load.message}
          onRetry={() => void list.reload(false)}
          testId="strategies-error"
        />
      )}
      {list.load.status === 'ready' && list.load.data.items.length === 0 && (
        <div className="card empty-state ui-empty" data-testid="strategies-empty">
          <div className="empty-state-icon">
            <Icon name="bot" size={26} />
          </div>
          <h2>{t('strategy.list.emptyTitle')}</h2>
          <p>{t('strategy.list.emptyText')}</p>
          <Link to={paths.newStrategy(lang)} className="btn btn-primary">
            {t('strategy.list.create')}
          </Link>
        </div>
      )}
      {list.load.status === 'ready' && list.load.data.items.length > 0 && (
        <ul className="sb-cards">
          {list.load.data.items.map((strategy) => (
            <li
              key={strategy.strategy_id}
              className="card sb-card"
              data-testid="strategy-card"
              data-strategy={strategy.strategy_id}
            >
              <div className="sb-card-head">
                <div>
                  <h2>
                    <Link to={paths.strategy(lang, strategy.strategy_id)} data-testid="strategy-link">
                      {t(`strategy.kind.${strategy.kind}`)} · {strategy.symbol}
                    </Link>
                  </h2>
                  <span className="sb-muted sb-small">
                    {t('strategy.list.number', { id: strategy.strategy_id })}
                  </span>
                </div>
                <StateBadge state={strategy.state} />
              </div>
              {strategy.stopReason && (
                <p className="sb-muted sb-small" data-testid="strategy-stop-reason">
                  {t(`strategy.stopReason.${strategy.stopReason}`)}
                </p>
              )}
              <StrategyFigures strategy={strategy} now={now} />
              <div className="ui-actions">
                <Link to={paths.strategy(lang, strategy.strategy_id)} className="btn btn-secondary btn-sm">
                  {t('strategy.list.details')}
                </Link>
                {(strategy.state === 'running' || strategy.state === 'waiting') && (
                  <button
                    type="button"
                    className="btn btn-secondary btn-sm sb-danger"
                    onClick={() => setStopping(strategy)}
                    data-testid="strategy-stop"
                  >
                    {t('strategy.action.stop')}
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
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
