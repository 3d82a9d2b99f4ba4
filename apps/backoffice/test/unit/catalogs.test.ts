import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BACKOFFICE_MENU } from '@broker/contracts/permissions';
import en from '@broker/i18n/locales/admin/en.json';
import zhCN from '@broker/i18n/locales/admin/zh-CN.json';
import { createTranslator, type TCatalog } from '@broker/i18n/translator';
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';

const catalogs: Record<string, TCatalog> = { en, 'zh-CN': zhCN };
const srcDir = fileURLToPath(new URL('../../src', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory()
      ? sources(path)
      : /\.tsx?$/.test(name)
        ? [readFileSync(path, 'utf8')]
        : [];
  });
}

/** Keys built at run time from a template, with every value they can take. */
const dynamicKeys = [
  ...BACKOFFICE_MENU.flatMap((m) => [`admin.menu.${m.key}`, `admin.module.${m.key}.description`]),
  ...['navy', 'dark', 'white'].map((theme) => `admin.theme.${theme}`),
  ...['tenants', 'users', 'staff', 'pageViewsToday'].flatMap((k) => [
    `admin.dashboard.stats.${k}.label`,
    `admin.dashboard.stats.${k}.hint`,
  ]),
];

describe('back-office catalogs', () => {
  it('have the same keys in zh-CN and en, all under admin.*', () => {
    expect(Object.keys(zhCN).sort()).toEqual(Object.keys(en).sort());
    for (const key of Object.keys(en)) expect(key).toMatch(/^admin\.[\w.-]+$/);
  });

  it('have a label and a description for every menu entry', () => {
    for (const key of dynamicKeys) {
      expect(en, key).toHaveProperty([key]);
      expect(zhCN, key).toHaveProperty([key]);
    }
  });

  it('hold every key the code uses, and no unused key', () => {
    const code = sources(srcDir).join('\n');
    const literal = new Set([...code.matchAll(/['"](admin\.[\w.-]+)['"]/g)].map((m) => m[1] as string));
    for (const key of literal) expect(en, key).toHaveProperty([key]);
    const used = new Set([...literal, ...dynamicKeys]);
    expect(Object.keys(en).filter((key) => !used.has(key))).toEqual([]);
  });

  it('parse as ICU messages with the same placeholders in both languages', () => {
    const names = (message: string) => [...message.matchAll(/\{(\w+)/g)].map((m) => m[1]).sort();
    for (const [locale, catalog] of Object.entries(catalogs)) {
      for (const [key, message] of Object.entries(catalog)) {
        expect(() => new IntlMessageFormat(message, locale), `${locale} ${key}`).not.toThrow();
        expect(names(message), `${locale} ${key}`).toEqual(names(en[key as keyof typeof en]));
      }
    }
  });

  it('are really translated: no Latin words in zh-CN text outside placeholders', () => {
    for (const [key, message] of Object.entries(zhCN)) {
      // The brand is a name and stays as it is in every language.
      const text = message.replace(/\{[^}]*\}/g, '').replaceAll('Northstar Markets', '');
      expect(text, key).not.toMatch(/[A-Za-z]/);
    }
  });

  it('format numbers and values through the shared translator', () => {
    const t = createTranslator('en', en);
    expect(t('admin.login.errors.passwordTooShort', { min: 5 })).toContain('5');
    expect(createTranslator('zh-CN', zhCN)('admin.dashboard.greeting', { name: '王' })).toBe('欢迎回来，王');
  });
});
