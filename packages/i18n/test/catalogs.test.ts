import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppErrorCode } from '@broker/domain/result-codes';
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { intlLocale, LOCALE_CODES } from '../src/locales';

const dir = join(import.meta.dirname, '../locales');
const read = (file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, string>;
const en = read('en.json');
/** Values that may equal the English text: names, symbols, and words the language really borrows. */
const allowIdentical = read('identical-allowlist.json') as unknown as Record<string, string[]>;
/** A value for every argument a message names; numbers suit plain and plural arguments alike. */
const sampleFor = (message: string) => Object.fromEntries(argumentNames(message).map((name) => [name, 3]));

function argumentNames(message: string): string[] {
  return [...message.matchAll(/\{\s*([a-zA-Z]+)\s*[,}]/g)].map((m) => m[1] as string).sort();
}

describe('locale catalogs', () => {
  it('has one catalog for each of the 16 route languages and nothing else', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'identical-allowlist.json');
    expect(files.map((f) => f.replace('.json', '')).sort()).toEqual([...LOCALE_CODES].sort());
  });

  for (const code of LOCALE_CODES) {
    describe(code, () => {
      const catalog = read(`${code}.json`);
      it('has exactly the English keys', () => {
        expect(Object.keys(catalog).sort()).toEqual(Object.keys(en).sort());
      });
      it('has valid ICU messages with the same arguments', () => {
        for (const [key, message] of Object.entries(catalog)) {
          expect(message.trim(), key).not.toBe('');
          expect(message, key).not.toBe(key);
          expect(argumentNames(message), key).toEqual(argumentNames(en[key] ?? ''));
          expect(
            () => new IntlMessageFormat(message, intlLocale(code)).format(sampleFor(message)),
            key,
          ).not.toThrow();
        }
      });
      if (code !== 'en') {
        it('leaves no English text untranslated', () => {
          const allowed = new Set([...(allowIdentical['*'] ?? []), ...(allowIdentical[code] ?? [])]);
          const untranslated = Object.keys(en).filter((key) => catalog[key] === en[key] && !allowed.has(key));
          expect(untranslated).toEqual([]);
        });
      }
    });
  }

  it('translates every result code the server can answer', () => {
    const missing = Object.values(AppErrorCode).filter((code) => !(`errors.${code}` in en));
    expect(missing).toEqual([]);
  });

  it('covers every key the portal uses literally', () => {
    const root = join(import.meta.dirname, '../../../apps/web/src');
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f));
    const used = new Set<string>();
    for (const file of files) {
      const source = readFileSync(join(root, file), 'utf8');
      for (const match of source.matchAll(/\bt\(\s*'([a-zA-Z0-9.-]+)'/g)) used.add(match[1] as string);
      for (const match of source.matchAll(/\bkey: '([a-zA-Z0-9-]+\.[a-zA-Z0-9.-]+)'/g))
        used.add(match[1] as string);
    }
    expect(used.size).toBeGreaterThan(50);
    expect([...used].filter((key) => !(key in en))).toEqual([]);
  });
});

describe('back-office catalogs', () => {
  const adminEn = read('admin/en.json');
  const adminZh = read('admin/zh-CN.json');
  it('are complete in English and Simplified Chinese', () => {
    expect(Object.keys(adminZh).sort()).toEqual(Object.keys(adminEn).sort());
    const untranslated = Object.keys(adminEn).filter(
      (k) =>
        adminEn[k] === adminZh[k] &&
        /[a-z]{3,}/i.test((adminEn[k] ?? '').replaceAll('Northstar Markets', '')),
    );
    expect(untranslated).toEqual([]);
  });
});
