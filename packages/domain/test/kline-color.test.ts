import { describe, expect, it } from 'vitest';
import { defaultKlineColor, KlineColor } from '../src/kline-color';

describe('defaultKlineColor (spec 4)', () => {
  it.each([
    ['156', KlineColor.RED_UP, 'China'],
    ['158', KlineColor.RED_UP, 'Taiwan'],
    ['344', KlineColor.RED_UP, 'Hong Kong'],
    ['446', KlineColor.RED_UP, 'Macau'],
    ['392', KlineColor.RED_UP, 'Japan'],
    ['840', KlineColor.GREEN_UP, 'United States'],
    ['826', KlineColor.GREEN_UP, 'United Kingdom'],
    ['410', KlineColor.GREEN_UP, 'South Korea'],
    ['036', KlineColor.GREEN_UP, 'Australia, padded'],
  ] as [string, number, string][])('%s gives %i (%s)', (code, expected) => {
    expect(defaultKlineColor(code)).toBe(expected);
  });

  it('accepts padded strings and numbers, and defaults to green-up without a country', () => {
    expect(defaultKlineColor('0156')).toBe(KlineColor.RED_UP);
    expect(defaultKlineColor(392)).toBe(KlineColor.RED_UP);
    expect(defaultKlineColor(null)).toBe(KlineColor.GREEN_UP);
    expect(defaultKlineColor('')).toBe(KlineColor.GREEN_UP);
    expect(defaultKlineColor('1560')).toBe(KlineColor.GREEN_UP);
  });
});
