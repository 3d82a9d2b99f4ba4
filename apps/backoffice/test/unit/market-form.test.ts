import type { TInstrumentConfig } from '@broker/domain/market/market-config';
import { SESSION_FX } from '@broker/domain/market/sessions';
import en from '@broker/i18n/locales/admin/en.json';
import { createTranslator } from '@broker/i18n/translator';
import { describe, expect, it } from 'vitest';
import { readInstrumentForm, readOverridesForm, toForm } from '../../src/areas/market/form';
import { formatDecimal, formatValue, parseHhmm, sessionsSummary } from '../../src/areas/market/format';

const t = createTranslator('en', en);
const config: TInstrumentConfig = {
  enabled: true,
  closeOnly: false,
  shortAllowed: true,
  markupPoints: 0,
  stopsLevelPoints: 0,
  minVolume: '0.01',
  volumeStep: '0.01',
  maxVolume: '100',
  maxLeverage: null,
  leverageTiers: [],
  sessions: [...SESSION_FX],
  swapLong: '-6.5',
  swapShort: '1.2',
  commissionPerLot: '0',
};

describe('market edit form', () => {
  it('reads back the configuration it was filled from', () => {
    const { config: read, problems } = readInstrumentForm(toForm(config), 100);
    expect(problems).toEqual({});
    expect(read).toEqual(config);
  });

  it('names the day whose hours are wrong, and the fields the rules refuse', () => {
    const form = toForm(config);
    form.days[2] = [{ from: '09:00', to: '25:00' }];
    form.days[3] = [
      { from: '00:00', to: '12:00' },
      { from: '11:00', to: '13:00' },
    ];
    form.markupPoints = '1.5';
    form.minVolume = '0.015';
    const { problems } = readInstrumentForm(form, 100);
    expect(problems).toEqual({
      'days.2': 'sessionWindow',
      'days.3': 'sessionsOverlap',
      markupPoints: 'markupRange',
      minVolume: 'lotsFormat',
    });
  });

  it('turns the weekday editor into weekly windows', () => {
    const form = toForm(config);
    form.days = [[], ...[1, 2, 3, 4, 5].map(() => [{ from: '08:00', to: '17:30' }]), []];
    const { config: read } = readInstrumentForm(form, 100);
    expect(read.sessions).toEqual(
      [1, 2, 3, 4, 5].map((d) => ({ from: d * 1440 + 480, to: d * 1440 + 1050 })),
    );
    expect(sessionsSummary(read.sessions, 'en', t)).toBe('Mon–Fri 08:00–17:30');
    expect(sessionsSummary(SESSION_FX, 'en', t)).toBe(
      'Sun 22:00–24:00; Mon–Thu 00:00–24:00; Fri 00:00–22:00',
    );
  });

  it('keeps only the ticked overrides, and checks them against the instrument', () => {
    const form = toForm(config);
    form.maxVolume = '5';
    form.swapLong = '0';
    form.volumeStep = '0.03';
    expect(readOverridesForm(form, new Set(['maxVolume', 'swapLong']), config, 100)).toEqual({
      overrides: { maxVolume: '5', swapLong: '0' },
      problems: {},
    });
    expect(readOverridesForm(form, new Set(['volumeStep']), config, 100).problems).toEqual({
      volumeStep: 'minNotMultipleOfStep',
    });
    form.maxLeverage = '';
    expect(readOverridesForm(form, new Set(['maxLeverage']), config, 100).problems).toEqual({
      maxLeverage: 'leverageRange',
    });
  });
});

describe('market formatting', () => {
  it('formats decimals without floats, times and values', () => {
    expect(formatDecimal('en', '1234567.5', 2)).toBe('1,234,567.50');
    expect(formatDecimal('de', '-0.05')).toBe('-0,05');
    expect(formatDecimal('en', '12345678901234567.12')).toBe('12,345,678,901,234,567.12');
    expect(parseHhmm('24:00')).toBe(1440);
    expect(parseHhmm('24:01')).toBeNull();
    expect(parseHhmm('7:30')).toBe(450);
    expect(formatValue('maxLeverage', null, { intl: 'en', t, defaultLeverage: 100 })).toBe('Default 1:100');
    expect(formatValue('markupPoints', 10000, { intl: 'en', t })).toBe('10,000 pts');
    expect(formatValue('closeOnly', undefined, { intl: 'en', t })).toBe('Inherited');
  });
});
