import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TLegalDocument, TLegalDocumentName } from '@broker/contracts/web-host';
import { LEGAL_DIR } from '@broker/i18n/legal-dir';
import { isLocaleCode } from '@broker/i18n/locales';
import { marked } from 'marked';

/** The language of the governing text: every other language's text is a translation of it. */
export const GOVERNING_LANGUAGE = 'en';
/** Translations made from another translation rather than from the governing text. */
const TRANSLATED_FROM: Readonly<Record<string, string>> = { zh: 'zh-CN' };

type TSourceText = Pick<TLegalDocument, 'html' | 'title'>;
const cache = new Map<string, Promise<TSourceText | null>>();

async function sourceText(lang: string, name: TLegalDocumentName): Promise<TSourceText | null> {
  let markdown: string;
  try {
    markdown = await readFile(join(LEGAL_DIR, lang, `${name}.md`), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const title = markdown.match(/^#\s+(.+)$/m)?.[1]?.trim() ?? name;
  return { html: await marked.parse(markdown, { gfm: true }), title };
}

function cachedText(lang: string, name: TLegalDocumentName): Promise<TSourceText | null> {
  const key = `${lang}/${name}`;
  let text = cache.get(key);
  if (!text) {
    text = sourceText(lang, name);
    cache.set(key, text);
    // A failed read (not a missing file) is retried on the next request.
    text.catch(() => cache.delete(key));
  }
  return text;
}

/**
 * A legal text in the route language when `packages/i18n/legal/<lang>/<name>.md` exists, else the
 * governing English text with `translated: false`. Every language with a folder is served; the
 * page marks a translation as such (ADR 003).
 */
export async function legalDocument(lang: string, name: TLegalDocumentName): Promise<TLegalDocument> {
  const own = isLocaleCode(lang) ? await cachedText(lang, name) : null;
  if (own) {
    const from = lang === GOVERNING_LANGUAGE ? undefined : TRANSLATED_FROM[lang];
    return {
      ...own,
      translated: true,
      lang,
      governing: GOVERNING_LANGUAGE,
      ...(from ? { translatedFrom: from } : {}),
    };
  }
  const governing = await cachedText(GOVERNING_LANGUAGE, name);
  if (!governing) throw new Error(`legal text ${GOVERNING_LANGUAGE}/${name}.md is missing`);
  return {
    ...governing,
    translated: false,
    lang: GOVERNING_LANGUAGE,
    governing: GOVERNING_LANGUAGE,
  };
}
