import type { TLegalDocument } from '@broker/contracts/web-host';
import { LOCALE_CODES } from '@broker/i18n/locales';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legalDocument } from '../../src/modules/content/legal';
import { ApiClient, startTestServer, type TTestServer } from '../helpers';

let server: TTestServer;
let api: ApiClient;
beforeAll(async () => {
  server = await startTestServer();
  api = new ApiClient(server.baseUrl);
});
afterAll(() => server.close());

const NAMES = ['privacy', 'privacy-google', 'termsofuse'] as const;

async function legaldoc(lang: string, name: string): Promise<TLegalDocument> {
  const answer = await api.post('/api/v1/content/legal', { lang, name }, { LanguageCode: lang });
  expect(answer.body.success, `${lang}/${name}`).toBe(true);
  return answer.body.data;
}

/** What a faithful translation keeps of the English text: its numbering and its Markdown structure. */
function shape(html: string) {
  const count = (pattern: RegExp) => html.match(pattern)?.length ?? 0;
  return {
    h1: count(/<h1[ >]/g),
    h2: count(/<h2[ >]/g),
    h3: count(/<h3[ >]/g),
    numbers: [...html.matchAll(/<h2[^>]*>\s*(\d+)\./g)].map((m) => m[1]),
    lists: count(/<(ul|ol)[ >]/g),
    items: count(/<li[ >]/g),
    bold: count(/<strong>/g),
    quotes: count(/<blockquote[ >]/g),
    tables: count(/<table[ >]/g),
  };
}

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

describe('legal texts', () => {
  for (const name of NAMES) {
    it(`${name}: every route language answers in its own language, translated from the governing English`, async () => {
      const english = await legaldoc('en', name);
      expect(english).toMatchObject({ translated: true, lang: 'en', governing: 'en' });
      expect(english.translatedFrom).toBeUndefined();
      const englishSentences = [...english.html.matchAll(/<(?:p|li)>([\s\S]*?)<\/(?:p|li)>/g)]
        .map((m) => text(m[1] as string).trim())
        .filter((sentence) => sentence.length > 40);
      expect(englishSentences.length).toBeGreaterThan(10);
      for (const lang of LOCALE_CODES.filter((code) => code !== 'en')) {
        const doc = await legaldoc(lang, name);
        expect(doc, `${lang}/${name}`).toMatchObject({ translated: true, lang, governing: 'en' });
        expect(doc.translatedFrom, `${lang}/${name}`).toBe(lang === 'zh' ? 'zh-CN' : undefined);
        expect(doc.title, `${lang}/${name}`).not.toBe(english.title);
        expect(doc.html, `${lang}/${name}`).toContain(`<h1>${doc.title}</h1>`);
        expect(shape(doc.html), `${lang}/${name}`).toEqual(shape(english.html));
        const body = text(doc.html);
        expect(
          englishSentences.filter((sentence) => body.includes(sentence)),
          `${lang}/${name}: English sentences left`,
        ).toEqual([]);
      }
    });
  }

  it('falls back to the English text, marked untranslated, for a language without a text of its own', async () => {
    const english = await legalDocument('en', 'privacy');
    const fallback = await legalDocument('en-XA', 'privacy');
    expect(fallback).toMatchObject({ translated: false, lang: 'en', governing: 'en', title: english.title });
    expect(fallback.html).toBe(english.html);
    // An unknown language in the call is answered as English.
    const answer = await legaldoc('xx', 'termsofuse');
    expect(answer).toMatchObject({
      translated: true,
      lang: 'en',
      title: (await legaldoc('en', 'termsofuse')).title,
    });
  });
});
