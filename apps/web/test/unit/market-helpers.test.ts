import { KlineColor } from '@broker/domain/kline-color';
import { describe, expect, it } from 'vitest';
import { parseAmount } from '../../src/features/converter/amount';
import { matchesSearch } from '../../src/features/markets/MarketsPage';
import { summarizeSessions, weekStartUtc } from '../../src/features/markets/sessions';
import { parseFavourites, toggleFavourite } from '../../src/lib/favourites';
import {
  changeClass,
  countryFromLanguage,
  direction,
  formatDecimal,
  formatPercent,
  klineColorFor,
  requestKlineColor,
} from '../../src/lib/market-format';

describe('price formatting', () => {
  it('formats decimal strings exactly in the reader’s locale', () => {
    expect(formatDecimal('en-US', '74785.25', 2)).toBe('74,785.25');
    expect(formatDecimal('de-DE', '74785.25', 2)).toBe('74.785,25');
    expect(formatDecimal('en-US', '0.267606')).toBe('0.267606');
    // More digits than a double holds survive, because Intl reads the string as a decimal.
    expect(formatDecimal('en-US', '123456789012345.12345678')).toBe('123,456,789,012,345.12345678');
    expect(formatDecimal('en-US', '-0.00018', 5, { sign: true })).toBe('-0.00018');
    expect(formatDecimal('en-US', '7.5', 1, { sign: true })).toBe('+7.5');
    expect(formatDecimal('en-US', 'n/a')).toBe('n/a');
  });

  it('formats percent points with their sign', () => {
    expect(formatPercent('en-US', '4.12')).toBe('+4.12%');
    expect(formatPercent('en-US', '-0.27')).toBe('-0.27%');
    expect(formatPercent('en-US', '0.00')).toBe('0.00%');
    expect(formatPercent('de-DE', '-2.04')).toBe('-2,04\u00a0%');
  });

  it('tells the direction and the sign of a change', () => {
    expect(direction('1.08085', '1.08086')).toBe(1);
    expect(direction('1.08085', '1.08084')).toBe(-1);
    expect(direction('1.08085', '1.08085')).toBe(0);
    expect(direction(undefined, '1')).toBe(0);
    expect(changeClass('-0.00018')).toBe('fall');
    expect(changeClass('0.00010')).toBe('rise');
    expect(changeClass('0.00')).toBe('');
    expect(changeClass('-0.00')).toBe('');
  });
});

describe('kline colour', () => {
  it('maps the browser language region to an ISO numeric country code', () => {
    expect(countryFromLanguage('zh-CN')).toBe('156');
    expect(countryFromLanguage('zh-TW')).toBe('158');
    expect(countryFromLanguage('zh-HK')).toBe('344');
    expect(countryFromLanguage('zh-MO')).toBe('446');
    expect(countryFromLanguage('ja')).toBe('392');
    expect(countryFromLanguage('en-US')).toBeNull();
    expect(countryFromLanguage(undefined)).toBeNull();
  });

  it('takes the cookie first, else the default of the country', () => {
    expect(klineColorFor('klineColor=1', 'zh-CN')).toBe(KlineColor.GREEN_UP);
    expect(klineColorFor('a=b; klineColor=0', 'en-US')).toBe(KlineColor.RED_UP);
    expect(klineColorFor('klineColor=9', 'zh-CN')).toBe(KlineColor.RED_UP);
    expect(klineColorFor('', 'ja-JP')).toBe(KlineColor.RED_UP);
    expect(klineColorFor('', 'de-DE')).toBe(KlineColor.GREEN_UP);
  });

  // Issue 21, item 10: the server renders the right colours from the first byte.
  it('renders a page in the cookie’s colour, else the default of the visitor’s first browser language', () => {
    const request = (cookie: string | null, acceptLanguage: string | null, pageLocale = 'en') =>
      requestKlineColor({ cookie, acceptLanguage, pageLocale });
    expect(request(null, 'zh-CN,zh;q=0.9,en;q=0.8')).toBe(KlineColor.RED_UP);
    expect(request('', 'ja')).toBe(KlineColor.RED_UP);
    expect(request(null, 'zh-TW')).toBe(KlineColor.RED_UP);
    expect(request(null, 'en-US,en;q=0.9', 'zh-CN')).toBe(KlineColor.GREEN_UP);
    expect(request(null, 'de;q=0.5, zh-HK')).toBe(KlineColor.RED_UP);
    // The cookie wins over any default, both ways.
    expect(request('theme=white; klineColor=1', 'zh-CN')).toBe(KlineColor.GREEN_UP);
    expect(request('klineColor=0', 'en-GB')).toBe(KlineColor.RED_UP);
    // Without a browser language, the page's language decides.
    expect(request(null, null, 'zh-CN')).toBe(KlineColor.RED_UP);
    expect(request(null, '', 'ja')).toBe(KlineColor.RED_UP);
    expect(request(null, null, 'fr')).toBe(KlineColor.GREEN_UP);
  });
});

describe('markets list', () => {
  it('searches symbols and names ignoring case, spaces and slashes', () => {
    const eur = { symbol: 'EURUSD', name: 'Euro / US Dollar' };
    expect(matchesSearch(eur, '')).toBe(true);
    expect(matchesSearch(eur, 'eur/usd')).toBe(true);
    expect(matchesSearch(eur, 'EUR USD')).toBe(true);
    expect(matchesSearch(eur, 'us dollar')).toBe(true);
    expect(matchesSearch(eur, 'gbp')).toBe(false);
    expect(matchesSearch({ symbol: 'XAUUSD', name: '黄金 / 美元' }, '黄金')).toBe(true);
  });

  it('keeps favourites as a clean list of symbols', () => {
    expect(parseFavourites(null)).toEqual([]);
    expect(parseFavourites('garbage')).toEqual([]);
    expect(parseFavourites('{"a":1}')).toEqual([]);
    expect(parseFavourites('["EURUSD","EURUSD",3,"btc usdt","BTCUSDT"]')).toEqual(['EURUSD', 'BTCUSDT']);
    expect(toggleFavourite(['EURUSD'], 'BTCUSDT')).toEqual(['EURUSD', 'BTCUSDT']);
    expect(toggleFavourite(['EURUSD', 'BTCUSDT'], 'EURUSD')).toEqual(['BTCUSDT']);
  });
});

describe('trading sessions', () => {
  const utcDay = (ms: number) => {
    const d = new Date(ms);
    return { day: d.getUTCDay(), minute: d.getUTCHours() * 60 + d.getUTCMinutes() };
  };
  const now = Date.UTC(2026, 10, 18, 12); // a Wednesday
  const sunday = weekStartUtc(now);
  const at = (minutes: number) => sunday + minutes * 60_000;
  const DAY = 1440;

  it('starts the week on Sunday 00:00 UTC', () => {
    expect(new Date(sunday).toISOString()).toBe('2026-11-15T00:00:00.000Z');
  });

  it('reads crypto as always open and forex as one span', () => {
    expect(summarizeSessions([{ from: 0, to: 7 * DAY }], now, utcDay)).toEqual({ kind: 'always' });
    expect(summarizeSessions([{ from: 22 * 60, to: 5 * DAY + 22 * 60 }], now, utcDay)).toEqual({
      kind: 'range',
      from: at(22 * 60),
      to: at(5 * DAY + 22 * 60),
    });
  });

  it('reads a daily break as one span with the break', () => {
    const windows = [0, 1, 2, 3, 4].map((d) => ({ from: d * DAY + 22 * 60, to: (d + 1) * DAY + 21 * 60 }));
    expect(summarizeSessions(windows, now, utcDay)).toEqual({
      kind: 'range',
      from: at(22 * 60),
      to: at(5 * DAY + 21 * 60),
      breakFrom: at(DAY + 21 * 60),
      breakTo: at(DAY + 22 * 60),
    });
  });

  it('reads the same hours on consecutive days as a day range', () => {
    const windows = [1, 2, 3, 4, 5].map((d) => ({ from: d * DAY + 7 * 60, to: d * DAY + 21 * 60 }));
    expect(summarizeSessions(windows, now, utcDay)).toEqual({
      kind: 'days',
      firstDay: at(DAY + 7 * 60),
      lastDay: at(5 * DAY + 7 * 60),
      from: at(DAY + 7 * 60),
      to: at(DAY + 21 * 60),
    });
  });

  it('lists windows that cross midnight in the reader’s zone', () => {
    const windows = [1, 2].map((d) => ({ from: d * DAY, to: d * DAY + 7 * 60 }));
    // Five hours behind UTC, the 00:00–07:00 UTC session runs from 19:00 to 02:00.
    const behind = (ms: number) => utcDay(ms - 5 * 3600_000);
    expect(summarizeSessions(windows, now, behind).kind).toBe('list');
  });
});

describe('converter amount', () => {
  it('accepts digits with one decimal separator and up to 8 decimals', () => {
    expect(parseAmount('1000')).toEqual({ ok: true, value: '1000' });
    expect(parseAmount(' 12.5 ')).toEqual({ ok: true, value: '12.5' });
    expect(parseAmount('12,5')).toEqual({ ok: true, value: '12.5' });
    expect(parseAmount('0012.50')).toEqual({ ok: true, value: '12.50' });
    expect(parseAmount('.5')).toEqual({ ok: true, value: '0.5' });
    expect(parseAmount('12.')).toEqual({ ok: true, value: '12' });
    expect(parseAmount('0.12345678')).toEqual({ ok: true, value: '0.12345678' });
  });

  it('refuses anything else with a reason', () => {
    expect(parseAmount('')).toEqual({ ok: false, error: 'empty' });
    expect(parseAmount('1.2.3')).toEqual({ ok: false, error: 'format' });
    expect(parseAmount('1,000.5')).toEqual({ ok: false, error: 'format' });
    expect(parseAmount('-5')).toEqual({ ok: false, error: 'format' });
    expect(parseAmount('1e5')).toEqual({ ok: false, error: 'format' });
    expect(parseAmount('.')).toEqual({ ok: false, error: 'format' });
    expect(parseAmount('0.123456789')).toEqual({ ok: false, error: 'decimals' });
    expect(parseAmount('1234567890123456')).toEqual({ ok: false, error: 'tooLarge' });
  });
});
