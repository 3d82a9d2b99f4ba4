import type { TStrategySpecRequest } from '@broker/contracts/strategy-routes';
import type { TCandle } from '@broker/domain/market/candles';
import type { TTimeframe } from '@broker/domain/market/timeframes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { simulateStrategy, type TPathPoint } from '@broker/domain/trading/strategy-simulation';
import type { TActor } from '../../actor';
import { engineError, fromScaled, mainAccount, money, toScaled } from '../trading';
import { engineSpec } from './params';
import type { TStrategyPorts } from './ports';

/** The candles a backtest reads: 7 days of M5, 30 days of M15, 90 days of H1 (about 2,000 to 2,900 bars). */
const WINDOWS: Record<7 | 30 | 90, { timeframe: TTimeframe; minutes: number }> = {
  7: { timeframe: 'M5', minutes: 5 },
  30: { timeframe: 'M15', minutes: 15 },
  90: { timeframe: 'H1', minutes: 60 },
};
const BARS_PER_CALL = 2_000;
const DAY_MS = 86_400_000;

/** Where the candles come from (the market service's stored candles and its source's history). */
export type TCandleSource = (
  symbol: string,
  timeframe: TTimeframe,
  range: { from: number; to: number; limit: number },
) => Promise<TCandle[]>;

/** A candle as four quotes: open, then the extreme the close is further from, the other, the close. */
export function candlePath(candles: readonly TCandle[], spread: number, minutes: number): TPathPoint[] {
  const path: TPathPoint[] = [];
  const step = (minutes * 60_000) / 4;
  for (const c of candles) {
    const prices = c.close >= c.open ? [c.open, c.low, c.high, c.close] : [c.open, c.high, c.low, c.close];
    prices.forEach((bid, i) => {
      path.push({ bid, ask: bid + spread, time: c.time + i * step });
    });
  }
  return path;
}

/**
 * strategybacktest: the bot run on a scratch engine (the live code) over the symbol's stored candles
 * of the last 7, 30 or 90 days (docs/strategies.md "Backtest"), from the first candle's price, with
 * today's spread and the trader's account terms. Answer: trades, profit, realised profit, fees,
 * the maximum drawdown, the margin call or stop-out if one came, the state at the end, a daily curve.
 */
export async function backtestStrategy(
  ports: TStrategyPorts & { candles: TCandleSource },
  input: {
    actor: TActor;
    account_id: number;
    investment: string;
    spec: TStrategySpecRequest;
    days: 7 | 30 | 90;
  },
) {
  const main = mainAccount(ports, input.actor, input.account_id);
  const investment = toScaled(input.investment, 2, 'investment', 'amountFormat');
  if (investment <= 0) throw AppError.invalid({ investment: 'amountFormat' });
  const engine = engineSpec(ports, input.spec);
  const symbol = input.spec.params.symbol;
  const setup = ports.host.simulationSetup();
  const today = setup.quotes.find((q) => q.symbol === symbol);
  if (!today) throw new AppError(AppErrorCode.NO_PRICE);
  const { timeframe, minutes } = WINDOWS[input.days];
  const to = Date.now();
  const from = to - input.days * DAY_MS;
  const candles: TCandle[] = [];
  for (let start = from; start < to; start += BARS_PER_CALL * minutes * 60_000) {
    const end = Math.min(to, start + BARS_PER_CALL * minutes * 60_000 - 1);
    for (const c of await ports.candles(symbol, timeframe, { from: start, to: end, limit: BARS_PER_CALL }))
      if (candles.length === 0 || c.time > candles[candles.length - 1]!.time) candles.push(c);
  }
  const first = candles[0];
  if (!first) throw new AppError(AppErrorCode.NO_PRICE);
  const spread = Math.max(0, today.ask - today.bid);
  const path = candlePath(candles, spread, minutes);
  // the bot's symbol starts at the first candle's price; the others (conversions) stay at today's
  const quotes = setup.quotes.map((q) =>
    q.symbol === symbol ? { symbol, bid: first.open, ask: first.open + spread, time: first.time } : q,
  );
  const started = performance.now();
  const result = simulateStrategy({
    config: setup.config,
    quotes,
    account: {
      accountType: main.accountType,
      tradeType: main.tradeType,
      currency: main.currency,
      leverage: main.leverage,
      profile: main.profile,
      marginCallBp: main.marginCallBp,
      stopOutBp: main.stopOutBp,
      negativeBalanceProtection: main.negativeBalanceProtection,
    },
    investment,
    spec: engine,
    path,
    startTime: first.time,
  });
  if (result.refused) throw engineError(result.refused);
  const digits = ports.host.digits(symbol) ?? 5;
  // one point a day: the equity after the day's last quote
  const daily = new Map<number, number>();
  path.slice(0, result.equity.length - 1).forEach((point, i) => {
    daily.set(Math.floor(point.time / DAY_MS), result.equity[i + 1]!);
  });
  return {
    days: input.days,
    timeframe,
    bars: candles.length,
    from: new Date(first.time).toISOString(),
    closedTrades: result.closedTrades,
    profit: money(result.finalEquity - investment),
    realizedProfit: money(result.realizedProfit),
    fees: money(result.fees),
    returnPercent: fromScaled(Math.round(((result.finalEquity - investment) * 10_000) / investment), 2),
    maxDrawdownPercent: fromScaled(result.maxDrawdownBp, 2),
    marginCallPrice: result.marginCallPrice === null ? null : fromScaled(result.marginCallPrice, digits),
    stopOutPrice: result.stopOutPrice === null ? null : fromScaled(result.stopOutPrice, digits),
    state: result.state,
    stopReason: result.stopReason,
    curve: [...daily].map(([day, equity]) => ({
      day: new Date(day * DAY_MS).toISOString().slice(0, 10),
      equity: money(equity),
    })),
    elapsedMs: Math.round(performance.now() - started),
  };
}
