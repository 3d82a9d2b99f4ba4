import { DEFAULT_INSTRUMENTS, instrumentBySymbol } from '../../src/market/instruments';
import { toPoints } from '../../src/price-format';
import { AccountType, TradeType } from '../../src/trading/calculations';
import {
  type TApplyResult,
  type TCommand,
  type TCreateAccountCommand,
  type TEngineConfig,
  type TEngineEvent,
  TradingEngine,
} from '../../src/trading/engine-core';
import { compileInstrument, type TInstrumentOverrides } from '../../src/trading/instrument-terms';

/** Wednesday 25 November 2026, 12:00 UTC: forex, metals, oil, US and European indices are open. */
export const WED_NOON = Date.parse('2026-11-25T12:00:00Z');
export const SATURDAY = Date.parse('2026-11-28T12:00:00Z');

export function engineConfig(overrides: Record<string, TInstrumentOverrides> = {}): TEngineConfig {
  return {
    instruments: DEFAULT_INSTRUMENTS.map((spec) => compileInstrument(spec, overrides[spec.symbol] ?? {})),
  };
}

export function points(symbol: string, price: string): number {
  const spec = instrumentBySymbol(symbol);
  if (!spec) throw new Error(`unknown ${symbol}`);
  return toPoints(price, spec.digits);
}

type TWithoutKey<T> = T extends TCommand
  ? Omit<T, 'clientKey' | 'time'> & { clientKey?: string; time?: number }
  : never;

/** An engine with a clock and automatic idempotency keys, for scenario tests. */
export class Harness {
  readonly engine: TradingEngine;
  time = WED_NOON;
  private seq = 0;

  constructor(overrides: Record<string, TInstrumentOverrides> = {}, engine?: TradingEngine) {
    this.engine = engine ?? new TradingEngine(engineConfig(overrides));
  }

  /** A tick with decimal prices, e.g. tick('EURUSD', '1.08420', '1.08430'). */
  tick(symbol: string, bid: string, ask: string): readonly TEngineEvent[] {
    return this.engine.onTick(symbol, points(symbol, bid), points(symbol, ask), this.time);
  }

  run(command: TWithoutKey<TCommand>): TApplyResult {
    this.seq++;
    return this.engine.apply({ clientKey: `k${this.seq}`, time: this.time, ...command } as TCommand);
  }

  ok(command: TWithoutKey<TCommand>): { events: readonly TEngineEvent[]; ticket: number | null } {
    const result = this.run(command);
    if (!result.ok) throw new Error(`${command.type} rejected: ${result.error}`);
    return result;
  }

  createAccount(accountId: number, overrides: Partial<TCreateAccountCommand> = {}): void {
    this.ok({
      type: 'create_account',
      accountId,
      accountType: AccountType.REAL,
      tradeType: TradeType.STANDARD,
      currency: 'USD',
      leverage: 100,
      initialBalance: 1_000_000,
      ...overrides,
    });
  }

  /** Quotes for the pairs most tests need, at round prices. */
  seedQuotes(): void {
    this.tick('EURUSD', '1.08420', '1.08430');
    this.tick('GBPUSD', '1.26700', '1.26710');
    this.tick('USDJPY', '151.420', '151.430');
    this.tick('XAUUSD', '2341.50', '2341.80');
    this.tick('US500', '5231.4', '5231.9');
    this.tick('GER40', '18175.2', '18176.4');
    this.tick('BTCUSDT', '67250.00', '67275.00');
  }
}

export function ledgerEvents(events: readonly TEngineEvent[]): Extract<TEngineEvent, { type: 'ledger' }>[] {
  return events.filter((e): e is Extract<TEngineEvent, { type: 'ledger' }> => e.type === 'ledger');
}

export function eventsOf<T extends TEngineEvent['type']>(
  events: readonly TEngineEvent[],
  type: T,
): Extract<TEngineEvent, { type: T }>[] {
  return events.filter((e): e is Extract<TEngineEvent, { type: T }> => e.type === type);
}
