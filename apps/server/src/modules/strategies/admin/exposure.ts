import type { TRouteOutput } from '@broker/contracts/routes';
import Big from 'big.js';
import type { TActor } from '../../../actor';
import { type MarketService, UsdConverter, usd } from '../../market';
import { inScope, type TScope, unitsToLots } from '../../trading';
import type { TStrategyPorts } from '../ports';

type TBotExposure = TRouteOutput<'adminstrategyexposure'>['symbols'][number];

/** The bots' exposure needs the market's prices to sum margins held in several currencies in USD. */
export type TStrategyExposurePorts = TStrategyPorts & { market: Pick<MarketService, 'symbols' | 'quotes'> };

/**
 * adminstrategyexposure: what the broker's working bots (waiting, running, stopped with positions
 * open) hold per symbol, in the scope's accounts: their positions long and short and the net, the
 * margin those positions hold (USD), and their pending orders with the lots they would buy and sell.
 * Lots are summed exactly in hundredths.
 */
export function botExposure(
  ports: TStrategyExposurePorts,
  input: { actor: TActor; scope: TScope },
): { symbols: TBotExposure[] } {
  const { core } = ports.host;
  const toUsd = new UsdConverter(ports.market);
  const bySymbol = new Map<
    string,
    {
      bots: number;
      positions: number;
      long: number;
      short: number;
      margin: Big;
      orders: number;
      buy: number;
      sell: number;
    }
  >();
  for (const { strategy: bot } of core.strategies()) {
    if (bot.state === 'stopped_closed') continue;
    if (ports.host.ownerOf(bot.accountId)?.tenantId !== input.actor.tenantId) continue;
    const account = core.account(bot.accountId);
    if (!account || !inScope(account.accountType, input.scope)) continue;
    const symbol = (bot.params as { symbol: string }).symbol;
    const entry = bySymbol.get(symbol) ?? {
      bots: 0,
      positions: 0,
      long: 0,
      short: 0,
      margin: new Big(0),
      orders: 0,
      buy: 0,
      sell: 0,
    };
    entry.bots++;
    for (const p of core.positionsOf(bot.accountId)) {
      if (p.strategyId !== bot.strategyId) continue;
      entry.positions++;
      if (p.side === 'buy') entry.long += p.volume;
      else entry.short += p.volume;
      entry.margin = entry.margin.plus(toUsd.minor(p.margin, account.currency));
    }
    for (const o of core.ordersOf(bot.accountId)) {
      if (o.strategyId !== bot.strategyId) continue;
      entry.orders++;
      if (o.type.startsWith('buy')) entry.buy += o.volume;
      else entry.sell += o.volume;
    }
    bySymbol.set(symbol, entry);
  }
  return {
    symbols: [...bySymbol]
      .map(([symbol, s]) => ({
        symbol,
        workingBots: s.bots,
        positions: s.positions,
        longLots: unitsToLots(s.long),
        shortLots: unitsToLots(s.short),
        netLots: unitsToLots(s.long - s.short),
        marginUsd: usd(s.margin),
        orders: s.orders,
        buyOrderLots: unitsToLots(s.buy),
        sellOrderLots: unitsToLots(s.sell),
      }))
      .sort((a, b) => b.workingBots - a.workingBots || a.symbol.localeCompare(b.symbol)),
  };
}
