/**
 * What a running bot's orders and positions allow the trader: nothing while the bot works them (stop
 * it first); once it is stopped they are the trader's, and closing one is close reason 6.
 */
import type { TTradingErrorCode } from '../../errors';
import { CloseReason, type TCloseReason } from '../../orders';
import type { Order, Position, Strategy } from '../state';

/** Whether a bot is working (its orders and positions are its own, not the trader's). */
export function isWorking(bot: Strategy | null): boolean {
  return bot !== null && (bot.state === 'waiting' || bot.state === 'running');
}

/**
 * A trader's command on a bot's order or position: refused while the bot works it (the broker's own
 * close, reason 2, still goes through).
 */
export function managedByBot(item: Position | Order, reason?: TCloseReason): TTradingErrorCode | null {
  if (item.strategyId === null || reason === CloseReason.AUTOMATIC) return null;
  const bot = item.account.bot;
  return bot !== null && bot.id === item.strategyId && isWorking(bot) ? 'STRATEGY_MANAGED' : null;
}

/** A trader's manual close of a stopped bot's kept position is the strategy stopped actively (6). */
export function strategyCloseReason(position: Position, reason: TCloseReason): TCloseReason {
  return position.strategyId !== null && reason === CloseReason.MANUAL
    ? CloseReason.STRATEGY_STOPPED_ACTIVELY
    : reason;
}
