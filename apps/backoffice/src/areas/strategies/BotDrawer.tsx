import { useState } from 'react';
import { Link } from 'react-router';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../i18n';
import { Drawer, DrawerSection, Facts } from '../../kit/Drawer';
import { LoadError, Skeleton } from '../../kit/Feedback';
import { useQuery } from '../../kit/useApi';
import { useSession } from '../../session';
import {
  DIRECTION_LABELS,
  FILTER_LABELS,
  KIND_LABELS,
  LOG_ACTION_LABELS,
  logDetail,
  paramFacts,
  STATE_TONES,
  STOP_REASON_LABELS,
  stopChoices,
  type TAdminBot,
  type TBotLogEntry,
  tone,
  useBotFormat,
} from './format';
import { StopDialog } from './StopDialog';

/**
 * One bot: where it stands (why it stopped), its figures, parameters and levels, and its log (the
 * last 200 entries, newest first); Stop for staff holding strategies.stop.
 */
export function BotDrawer({
  strategyId,
  onClose,
  onStopped,
}: {
  strategyId: number;
  onClose: () => void;
  onStopped: (message: string) => void;
}) {
  const { t } = useI18n();
  const { can } = useSession();
  const detail = useQuery('adminstrategydetail', { strategy_id: strategyId });
  const [stopping, setStopping] = useState(false);
  const bot = detail.data?.strategy.strategy_id === strategyId ? detail.data.strategy : null;
  const choices = bot ? stopChoices(bot.state, can) : [];

  return (
    <Drawer
      testId="strategy-drawer"
      className="sg-drawer"
      onClose={onClose}
      title={
        <>
          <span>{t('admin.strategies.drawer.title', { id: String(strategyId) })}</span>
          {bot ? (
            <span
              className={`kit-pill ${STATE_TONES[bot.state]}`}
              data-testid="strategy-drawer-state"
              data-state={bot.state}
            >
              {t(FILTER_LABELS[bot.state])}
            </span>
          ) : null}
        </>
      }
      subtitle={
        bot ? (
          <>
            <span>{t(KIND_LABELS[bot.kind])}</span>
            <strong>{bot.symbol}</strong>
            <span>{t(DIRECTION_LABELS[bot.params.params.direction] ?? bot.params.params.direction)}</span>
          </>
        ) : null
      }
      footer={
        bot && choices.length > 0 ? (
          <button
            type="button"
            className="btn kit-btn-danger"
            onClick={() => setStopping(true)}
            data-testid="strategy-stop"
          >
            {t(
              choices.includes('keep') ? 'admin.strategies.stop.button' : 'admin.strategies.stop.closeButton',
            )}
          </button>
        ) : null
      }
    >
      {detail.status === 'error' ? (
        <LoadError message={detail.error.message} onRetry={detail.reload} />
      ) : null}
      {!bot && detail.status === 'loading' ? <Skeleton lines={8} /> : null}
      {bot && detail.data ? <BotBody bot={bot} log={detail.data.log} /> : null}
      {bot && stopping ? (
        <StopDialog
          bot={bot}
          choices={choices}
          onClose={() => setStopping(false)}
          onDone={(message) => {
            setStopping(false);
            detail.reload();
            onStopped(message);
          }}
        />
      ) : null}
    </Drawer>
  );
}

/** Where the bot stands, in a sentence. */
const WHERE_LABELS: Record<TAdminBot['state'], string> = {
  waiting: 'admin.strategies.where.waiting',
  running: 'admin.strategies.where.running',
  stopped_open: 'admin.strategies.where.stopped_open',
  stopped_closed: 'admin.strategies.where.stopped_closed',
};

function BotBody({ bot, log }: { bot: TAdminBot; log: readonly TBotLogEntry[] }) {
  const { t } = useI18n();
  const format = useBotFormat();
  const stopped = bot.state === 'stopped_open' || bot.state === 'stopped_closed';
  return (
    <>
      <section className={`sg-state sg-state-${bot.state}`} data-testid="strategy-drawer-where">
        <strong>{t(WHERE_LABELS[bot.state])}</strong>
        {stopped && bot.stopReason ? (
          <span data-testid="strategy-stop-reason">
            {t(STOP_REASON_LABELS[bot.stopReason] ?? 'admin.strategies.stopReason.other', {
              reason: bot.stopReason,
            })}
          </span>
        ) : null}
      </section>

      <DrawerSection title={t('admin.strategies.drawer.figures')} testId="strategy-figures">
        <Facts
          items={[
            [
              t('admin.strategies.field.customer'),
              <Link key="c" to={`/users/${encodeURIComponent(bot.userId)}`}>
                {bot.customerName || bot.customerEmail || bot.userId}
              </Link>,
            ],
            [
              t('admin.strategies.field.account'),
              <span key="a" className="num">
                #{bot.account_id} ·{' '}
                {t('admin.strategies.field.mainAccount', { id: String(bot.parent_account_id) })}
              </span>,
            ],
            [t('admin.strategies.field.investment'), format.money(bot.investment, bot.currency)],
            [t('admin.strategies.field.equity'), format.money(bot.equity, bot.currency)],
            [
              t('admin.strategies.field.realized'),
              <span key="r" className={tone(bot.realizedProfit)}>
                {format.signedMoney(bot.realizedProfit, bot.currency)}
              </span>,
            ],
            [
              t('admin.strategies.field.unrealized'),
              <span key="u" className={tone(bot.unrealizedProfit)}>
                {format.signedMoney(bot.unrealizedProfit, bot.currency)}
              </span>,
            ],
            [t('admin.strategies.field.fees'), format.signedMoney(bot.fees, bot.currency)],
            [t('admin.strategies.field.margin'), format.money(bot.margin, bot.currency)],
            [t('admin.strategies.field.closedTrades'), format.count(bot.closedTrades)],
            [
              t('admin.strategies.field.openItems'),
              t('admin.strategies.drawer.openItems', {
                positions: bot.openPositions,
                orders: bot.openOrders,
              }),
            ],
            [t('admin.strategies.field.created'), format.dateTime(bot.createdAt)],
            [
              t('admin.strategies.field.started'),
              bot.startedAt ? format.dateTime(bot.startedAt) : t('admin.strategies.notStarted'),
            ],
          ]}
        />
      </DrawerSection>

      <DrawerSection title={t('admin.strategies.drawer.parameters')} testId="strategy-params">
        <Facts
          items={paramFacts(bot.params, {
            t,
            price: format.price,
            percent: format.percent,
            lots: format.lots,
            count: format.count,
          })}
        />
      </DrawerSection>

      {bot.round ? (
        <DrawerSection title={t('admin.strategies.drawer.round')} testId="strategy-round">
          <Facts
            items={[
              [t('admin.strategies.round.number'), format.count(bot.round.number)],
              [t('admin.strategies.round.completed'), format.count(bot.round.completed)],
              [t('admin.strategies.round.adds'), format.count(bot.round.adds)],
              [
                t('admin.strategies.round.average'),
                bot.round.averagePrice ? format.price(bot.round.averagePrice) : '—',
              ],
              [
                t('admin.strategies.round.takeProfit'),
                bot.round.takeProfit ? format.price(bot.round.takeProfit) : '—',
              ],
            ]}
          />
        </DrawerSection>
      ) : null}

      {bot.levels.length > 0 ? (
        <DrawerSection
          title={t(
            bot.kind === 'grid' ? 'admin.strategies.drawer.levels' : 'admin.strategies.drawer.roundPrices',
          )}
          testId="strategy-levels"
        >
          <ol className="sg-levels">
            {bot.kind === 'grid'
              ? [...bot.levels].reverse().map((level, i) => (
                  <li key={`${level}-${i}`} className="num">
                    {format.price(level)}
                  </li>
                ))
              : bot.levels.map((level, k) => (
                  <li key={`${level}-${k}`}>
                    <span className="sg-muted">
                      {k === 0
                        ? t('admin.strategies.round.first')
                        : t('admin.strategies.round.add', { n: k })}
                    </span>{' '}
                    <span className="num">{format.price(level)}</span>
                  </li>
                ))}
          </ol>
        </DrawerSection>
      ) : null}

      <DrawerSection title={t('admin.strategies.log.title')} testId="strategy-log">
        {log.length === 0 ? (
          <p className="sg-muted">{t('admin.strategies.log.empty')}</p>
        ) : (
          <ol className="sg-log">
            {log.map((entry, i) => {
              const words = logDetail(entry);
              const actionKey = LOG_ACTION_LABELS[entry.action];
              return (
                <li key={i} className="sg-log-entry" data-action={entry.action}>
                  <span className="sg-log-time num">{format.logTime(entry.time)}</span>
                  <span className="sg-log-what">
                    <strong>{actionKey ? t(actionKey) : entry.action}</strong>
                    {entry.price ? <span className="num">{format.price(entry.price)}</span> : null}
                    {entry.volume ? (
                      <span className="num">
                        {t('admin.strategies.log.lots', { lots: format.lots(entry.volume) })}
                      </span>
                    ) : null}
                    {entry.profit ? (
                      <span className={`num ${tone(entry.profit) ?? ''}`}>
                        {format.signedMoney(entry.profit, bot.currency)}
                      </span>
                    ) : null}
                    {entry.detail ? (
                      <span className="sg-muted">{words ? t(words.key, words.values) : entry.detail}</span>
                    ) : null}
                  </span>
                </li>
              );
            })}
          </ol>
        )}
      </DrawerSection>
      <div className="kit-actions">
        <Link className="btn btn-secondary btn-sm" to={`/users/${encodeURIComponent(bot.userId)}`}>
          <Icon name="user" size={14} />
          {t('admin.strategies.drawer.customer')}
        </Link>
      </div>
    </>
  );
}
