import { describe, expect, it } from 'vitest';
import { negotiateLocale, parseAcceptLanguage } from '../src/negotiate';

describe('language negotiation (spec 2.1)', () => {
  it.each([
    [['zh-TW'], 'zh'],
    [['zh-HK'], 'zh'],
    [['zh-Hant'], 'zh'],
    [['zh'], 'zh-CN'],
    [['zh-CN'], 'zh-CN'],
    [['zh-SG'], 'zh-CN'],
    [['pt-BR'], 'pt'],
    [['pt-PT'], 'pt'],
    [['fil-PH'], 'fil'],
    [['tl'], 'fil'],
    [['en-GB'], 'en'],
    [['de-AT'], 'de'],
    [['sv-SE'], 'zh-CN'],
    [[], 'zh-CN'],
    [['sv', 'fr-CA', 'en'], 'fr'],
    [['not a tag!'], 'zh-CN'],
    [['in'], 'id'],
  ])('%j -> %s', (tags, expected) => {
    expect(negotiateLocale(tags)).toBe(expected);
  });

  it('orders Accept-Language by quality', () => {
    expect(parseAcceptLanguage('en;q=0.5, ja;q=0.9, *;q=0.1, ko')).toEqual(['ko', 'ja', 'en']);
    expect(negotiateLocale(parseAcceptLanguage('sv;q=1, ru;q=0.8, en;q=0.9'))).toBe('en');
  });
});
