import type { TStrategySpecRequest, TWorstCase } from '@broker/contracts/strategy-routes';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import type { TStrategySpecInput } from '@broker/domain/trading/engine/strategy/types';
import type { TAccountView } from '@broker/domain/trading/engine-core';
import {
  simulateStrategy,
  type TSimulationResult,
  worstCasePath,
} from '@broker/domain/trading/strategy-simulation';
import { engineError, fromScaled, money } from '../trading';
import { engineSpec } from './params';
import type { TStrategyPorts } from './ports';

const WALK_STEPS = 400;

/**
 * The worst case of a bot (docs/strategies.md "Before launch"): the bot run on a scratch engine (the
 * live code) from today's quotes, the price walked against it through and beyond its range or its last
 * add, on to three times as far again, 400 steps, until its account is stopped out. A neutral grid is
 * walked both ways and the worse kept. Breaches the margin rules when the margin call comes inside the
 * bot's own range (long: at or above its lowest level or last add; short: at or below its highest),
 * or when the bot could not place or fill one of its orders on the way (not enough margin).
 */
export function worstCase(
  ports: TStrategyPorts,
  input: { main: TAccountView; investment: number; spec: TStrategySpecRequest },
): { levels: number[]; worst: TWorstCase; engine: TStrategySpecInput } {
  const engine = engineSpec(ports, input.spec);
  const symbol = input.spec.params.symbol;
  const setup = ports.host.simulationSetup();
  const raw = setup.quotes.find((q) => q.symbol === symbol);
  if (!raw) throw new AppError(AppErrorCode.NO_PRICE);
  const digits = ports.host.digits(symbol) ?? 5;
  const now = Date.now();
  const run = (to: number) =>
    simulateStrategy({
      config: setup.config,
      quotes: setup.quotes,
      account: {
        accountType: input.main.accountType,
        tradeType: input.main.tradeType,
        currency: input.main.currency,
        leverage: input.main.leverage,
        profile: input.main.profile,
        marginCallBp: input.main.marginCallBp,
        stopOutBp: input.main.stopOutBp,
        negativeBalanceProtection: input.main.negativeBalanceProtection,
      },
      investment: input.investment,
      spec: engine,
      path: worstCasePath({ bid: raw.bid, ask: raw.ask, to, steps: WALK_STEPS, startTime: now }),
      startTime: now,
    });
  // a first run finds the bot's own levels (and whether the engine takes it at all)
  const probe = run(raw.bid);
  if (probe.refused) throw engineError(probe.refused);
  const levels = probe.levels;
  const low = Math.min(raw.bid, ...levels);
  const high = Math.max(raw.bid, ...levels);
  const downTo = Math.max(1, low - 3 * Math.max(raw.bid - low, Math.ceil(raw.bid / 100)));
  const upTo = high + 3 * Math.max(high - raw.bid, Math.ceil(raw.bid / 100));
  const direction = input.spec.params.direction;
  const results: { r: TSimulationResult; falling: boolean }[] = [];
  if (direction !== 'short') results.push({ r: run(downTo), falling: true });
  if (direction === 'short' || direction === 'neutral') results.push({ r: run(upTo), falling: false });
  const { r, falling } = results.reduce((a, b) => (b.r.minEquity < a.r.minEquity ? b : a));
  // the margin call inside the bot's own range, or an order it could not place or fill on the way
  const breaches =
    r.refusals > 0 ||
    probe.refusals > 0 ||
    (r.marginCallPrice !== null && (falling ? r.marginCallPrice >= low : r.marginCallPrice <= high));
  const px = (v: number | null) => (v === null ? null : fromScaled(v, digits));
  return {
    levels,
    engine,
    worst: {
      maxMargin: money(r.maxMargin),
      marginCallPrice: px(r.marginCallPrice),
      stopOutPrice: px(r.stopOutPrice),
      maxLoss: money(Math.max(0, input.investment - r.minEquity)),
      walkedTo: fromScaled(r.stopOutPrice ?? (falling ? downTo : upTo), digits),
      breachesMarginRules: breaches,
    },
  };
}
