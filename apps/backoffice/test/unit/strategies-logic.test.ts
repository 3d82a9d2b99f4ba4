import { STRATEGY_STOP_REASON_MAX } from '@broker/contracts/admin/strategy-routes';
import { describe, expect, it } from 'vitest';
import {
  logDetail,
  paramFacts,
  STOP_REASON_MAX,
  stateCounts,
  stopChoices,
  stopReasonProblem,
  type TAdminBot,
} from '../../src/areas/strategies/format';

const holding =
  (...permissions: string[]) =>
  (permission: string) =>
    permissions.includes(permission);

/** The words paramFacts needs, as plain text: the key itself, and values marked by kind. */
const words = {
  t: (key: string) => key,
  price: (value: string) => `P${value}`,
  percent: (value: string) => `${value}%`,
  lots: (value: string) => `L${value}`,
  count: (value: number) => String(value),
};

describe('strategy bots in the back office', () => {
  it('counts every state segment, 0 for one the server left out', () => {
    expect(stateCounts({ running: 2, stopped_open: 1, working: 3, all: 5 })).toEqual({
      working: 3,
      waiting: 0,
      running: 2,
      stopped_open: 1,
      stopped_closed: 0,
      all: 5,
    });
    expect(stateCounts(undefined)).toBeNull();
  });

  it('needs a stop reason of at most 60 characters, trimmed, as the contract does', () => {
    expect(STOP_REASON_MAX).toBe(STRATEGY_STOP_REASON_MAX);
    expect(stopReasonProblem('   ')).toBe('required');
    expect(stopReasonProblem(`  ${'x'.repeat(60)}  `)).toBeNull();
    expect(stopReasonProblem('x'.repeat(61))).toBe('tooLong');
  });

  it('offers closing or keeping to a working bot, closing to one that kept its positions, nothing otherwise', () => {
    const stopper = holding('strategies.view', 'strategies.stop');
    expect(stopChoices('running', stopper)).toEqual(['close', 'keep']);
    expect(stopChoices('waiting', stopper)).toEqual(['close', 'keep']);
    expect(stopChoices('stopped_open', stopper)).toEqual(['close']);
    expect(stopChoices('stopped_closed', stopper)).toEqual([]);
    expect(stopChoices('running', holding('strategies.view'))).toEqual([]);
  });

  it('names why a bot stopped, why a position closed, the kind, the round and the trigger side in its log', () => {
    expect(logDetail({ action: 'stopped', detail: 'client' })).toEqual({
      key: 'admin.strategies.stopReason.client',
    });
    expect(logDetail({ action: 'position_closed', detail: '6' })).toEqual({
      key: 'admin.customers.closeReason.strategyManual',
    });
    expect(logDetail({ action: 'started', detail: 'grid' })).toEqual({ key: 'admin.strategies.kind.grid' });
    expect(logDetail({ action: 'round_started', detail: '2' })).toEqual({
      key: 'admin.strategies.log.round',
      values: { round: '2' },
    });
    expect(logDetail({ action: 'waiting', detail: 'above' })).toEqual({
      key: 'admin.strategies.log.triggerAbove',
    });
    // an order refusal's code shows as sent
    expect(logDetail({ action: 'order_refused', detail: 'INSUFFICIENT_MARGIN' })).toBeNull();
    expect(logDetail({ action: 'stopped', detail: null })).toBeNull();
  });

  it('lists a grid’s parameters in the form’s order, without the unset optional ones', () => {
    const spec: TAdminBot['params'] = {
      kind: 'grid',
      params: {
        symbol: 'BTCUSDT',
        direction: 'long',
        lowerPrice: '66000.00',
        upperPrice: '67000.00',
        grids: 4,
        spacing: 'arithmetic',
        volumePerGrid: '0.01',
        triggerPrice: null,
        takeProfitPercent: '5',
        trailingUp: false,
      },
    };
    expect(paramFacts(spec, words)).toEqual([
      ['admin.strategies.param.range', 'P66000.00 – P67000.00'],
      ['admin.strategies.param.grids', '4'],
      ['admin.strategies.param.spacing', 'admin.strategies.spacing.arithmetic'],
      ['admin.strategies.param.volumePerGrid', 'L0.01'],
      ['admin.strategies.param.takeProfitPercent', '5%'],
      ['admin.strategies.param.trailingUp', 'admin.strategies.no'],
    ]);
  });

  it('lists a martingale’s parameters', () => {
    const spec: TAdminBot['params'] = {
      kind: 'martingale',
      params: {
        symbol: 'BTCUSDT',
        direction: 'short',
        firstVolume: '0.10',
        stepPercent: '0.50',
        multiplier: '2',
        maxAdds: 3,
        takeProfitPercent: '0.30',
        cycle: 'stop',
      },
    };
    expect(paramFacts(spec, words)).toEqual([
      ['admin.strategies.param.firstVolume', 'L0.10'],
      ['admin.strategies.param.stepPercent', '0.50%'],
      ['admin.strategies.param.multiplier', '× 2'],
      ['admin.strategies.param.maxAdds', '3'],
      ['admin.strategies.param.roundTakeProfit', '0.30%'],
      ['admin.strategies.param.cycle', 'admin.strategies.cycle.stop'],
    ]);
  });
});
