import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TLegalDocument, TLegalDocumentName } from '@broker/contracts/web-host';
import { LEGAL_DIR } from '@broker/i18n/legal-dir';
import { marked } from 'marked';

const WRITTEN_LANGUAGES = ['en', 'zh-CN'];
const cache = new Map<string, TLegalDocument>();

/** Legal texts exist in English and Simplified Chinese; other languages get the English text. */
export async function legalDocument(lang: string, name: TLegalDocumentName): Promise<TLegalDocument> {
  const source = WRITTEN_LANGUAGES.includes(lang) ? lang : 'en';
  const key = `${source}/${name}`;
  let doc = cache.get(key);
  if (!doc) {
    const markdown = await readFile(join(LEGAL_DIR, source, `${name}.md`), 'utf8');
    const title = markdown.match(/^#\s+(.+)$/m)?.[1]?.trim() ?? name;
    doc = { html: await marked.parse(markdown, { gfm: true }), translated: true, title };
    cache.set(key, doc);
  }
  return { ...doc, translated: source === lang };
}
