import { describe, expect, it } from 'vitest';
import {
  checkStrategyDraft,
  EMPTY_STRATEGY_DRAFT,
  priceSlot,
  readDecimal,
  readMultiplier,
  type TStrategyDraft,
} from '../../src/features/strategies/strategy-form';

/** The create-a-bot form's rules mirror the contract (packages/contracts/src/strategy-routes.ts). */
const grid = (over: Partial<TStrategyDraft> = {}): TStrategyDraft => ({
  ...EMPTY_STRATEGY_DRAFT,
  investment: '1000',
  lowerPrice: '66000',
  upperPrice: '67000',
  grids: '4',
  volumePerGrid: '0.01',
  ...over,
});

describe('strategy form', () => {
  it('turns a grid typed in German into the plain strings the server takes', () => {
    const checked = checkStrategyDraft(
      grid({ investment: '1.000,50', lowerPrice: '66000,5', upperPrice: '67000', takeProfit: '68000' }),
      'de-DE',
    );
    expect(checked).toEqual({
      ok: true,
      request: {
        investment: '1000.50',
        spec: {
          kind: 'grid',
          params: {
            symbol: 'BTCUSDT',
            direction: 'long',
            lowerPrice: '66000.5',
            upperPrice: '67000',
            grids: 4,
            spacing: 'arithmetic',
            volumePerGrid: '0.01',
            outOfRange: 'keep',
            trailingUp: false,
            takeProfitPrice: '68000',
          },
        },
      },
    });
  });

  it('marks the grid fields the contract refuses', () => {
    const checked = checkStrategyDraft(
      grid({
        lowerPrice: '67000',
        upperPrice: '66000',
        grids: '201',
        volumePerGrid: '0.001',
        investment: '',
      }),
      'en-US',
    );
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.problems).toEqual({
      upperPrice: { key: 'aboveLower' },
      grids: { key: 'range', values: { min: 2, max: 200 } },
      volumePerGrid: { key: 'decimals', values: { count: 2 } },
      investment: { key: 'required' },
    });
  });

  it('sends percentages of the investment, keeps trailing for long grids only and checks take-profit against stop-loss', () => {
    const percent = checkStrategyDraft(
      grid({
        exitMode: 'percent',
        takeProfit: '12,5',
        stopLoss: '10',
        gridDirection: 'short',
        trailingUp: true,
      }),
      'fr-FR',
    );
    expect(percent.ok && percent.request.spec.params).toMatchObject({
      direction: 'short',
      takeProfitPercent: '12.5',
      stopLossPercent: '10',
      trailingUp: false,
    });
    const crossed = checkStrategyDraft(grid({ takeProfit: '65000', stopLoss: '65500' }), 'en-US');
    expect(!crossed.ok && crossed.problems.takeProfit).toEqual({ key: 'tpAboveSl' });
  });

  it('checks a martingale: multiplier 1 to 5, 0 to 30 adds, optional stop-loss', () => {
    const draft: TStrategyDraft = {
      ...EMPTY_STRATEGY_DRAFT,
      kind: 'martingale',
      investment: '500',
      symbol: 'eurusd',
      firstVolume: '0.10',
      stepPercent: '0.5',
      multiplier: '2',
      maxAdds: '0',
      martingaleTakeProfit: '0.3',
    };
    expect(checkStrategyDraft(draft, 'en-US')).toEqual({
      ok: true,
      request: {
        investment: '500.00',
        spec: {
          kind: 'martingale',
          params: {
            symbol: 'EURUSD',
            direction: 'long',
            firstVolume: '0.1',
            stepPercent: '0.5',
            multiplier: '2',
            maxAdds: 0,
            takeProfitPercent: '0.3',
            cycle: 'repeat',
          },
        },
      },
    });
    const bad = checkStrategyDraft(
      { ...draft, multiplier: '5.5', maxAdds: '31', martingaleStopLoss: 'x' },
      'en-US',
    );
    expect(!bad.ok && bad.problems).toEqual({
      multiplier: { key: 'range', values: { min: '1', max: '5' } },
      maxAdds: { key: 'range', values: { min: 0, max: 30 } },
      martingaleStopLoss: { key: 'format' },
    });
  });

  it('refuses on the client what the server refuses: take-profit and stop-loss on the wrong side of the price, more than the balance', () => {
    const context = { price: '66500.00', balance: '900.00' };
    const tp = checkStrategyDraft(grid({ takeProfit: '66400' }), 'de-DE', context);
    expect(!tp.ok && tp.problems).toEqual({
      investment: { key: 'aboveBalance' },
      takeProfit: { key: 'tpAbovePrice', values: { price: '66500,00' } },
    });
    const sl = checkStrategyDraft(grid({ stopLoss: '66600', investment: '500' }), 'de-DE', context);
    expect(!sl.ok && sl.problems).toEqual({
      stopLoss: { key: 'slBelowPrice', values: { price: '66500,00' } },
    });
    const short = checkStrategyDraft(
      grid({ gridDirection: 'short', takeProfit: '66600', stopLoss: '66700', investment: '500' }),
      'en-US',
      context,
    );
    expect(!short.ok && short.problems).toEqual({
      takeProfit: { key: 'tpBelowPrice', values: { price: '66500.00' } },
    });
    expect(
      checkStrategyDraft(grid({ takeProfit: '67500', stopLoss: '65500' }), 'en-US', {
        ...context,
        balance: '1000',
      }).ok,
    ).toBe(true);
    // as a share of the investment: a stop-loss of at most 100 %
    const percent = checkStrategyDraft(grid({ exitMode: 'percent', stopLoss: '100.01' }), 'en-US');
    expect(!percent.ok && percent.problems.stopLoss).toEqual({
      key: 'range',
      values: { min: '0.01', max: '100' },
    });
  });

  it('keeps the stop-loss of a martingale beyond its last add, its adds above zero and its step within 50 %', () => {
    const draft: TStrategyDraft = {
      ...EMPTY_STRATEGY_DRAFT,
      kind: 'martingale',
      investment: '500',
      firstVolume: '0.01',
      stepPercent: '1,5',
      multiplier: '2',
      maxAdds: '3',
      martingaleTakeProfit: '1',
      martingaleStopLoss: '4,5',
    };
    const near = checkStrategyDraft(draft, 'de-DE');
    expect(!near.ok && near.problems).toEqual({
      martingaleStopLoss: { key: 'slBeyondAdds', values: { percent: '4,5' } },
    });
    expect(checkStrategyDraft({ ...draft, martingaleStopLoss: '4,51' }, 'de-DE').ok).toBe(true);
    const deep = checkStrategyDraft(
      { ...draft, stepPercent: '4', maxAdds: '25', martingaleStopLoss: '' },
      'en-US',
    );
    expect(!deep.ok && deep.problems).toEqual({ maxAdds: { key: 'addsTooDeep' } });
    const wide = checkStrategyDraft(
      { ...draft, stepPercent: '60', maxAdds: '1', martingaleStopLoss: '' },
      'en-US',
    );
    expect(!wide.ok && wide.problems).toEqual({
      stepPercent: { key: 'range', values: { min: '0.01', max: '50' } },
    });
  });

  it('reads decimals exactly in the reader locale', () => {
    expect(readDecimal('0,00000001', 'de-DE', { decimals: 8, whole: 9 })).toEqual({
      ok: true,
      value: '0.00000001',
    });
    expect(readDecimal('0', 'en-US', { decimals: 2, whole: 6 })).toEqual({
      ok: false,
      problem: { key: 'positive' },
    });
    expect(readDecimal('1234567890', 'en-US', { decimals: 8, whole: 9 }).ok).toBe(false);
    expect(readMultiplier('1.25', 'en-US')).toEqual({ ok: true, value: '1.25' });
    expect(readMultiplier('0.5', 'en-US').ok).toBe(false);
  });

  it('places today’s price among the levels without floats', () => {
    const levels = ['66000.00', '66250.00', '66500.00'];
    expect(priceSlot(levels, '65999.99')).toBe(0);
    expect(priceSlot(levels, '66250.00')).toBe(2);
    expect(priceSlot(levels, '70000')).toBe(3);
  });
});
