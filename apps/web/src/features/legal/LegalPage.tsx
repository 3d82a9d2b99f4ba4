import type { TLegalDocument } from '@broker/contracts/web-host';
import { useLoaderData } from 'react-router';
import { useI18n } from '../../lib/i18n';

/** Display tags for Intl.DisplayNames: the two Chinese route languages are told apart by script. */
const DISPLAY_TAG: Readonly<Record<string, string>> = { 'zh-CN': 'zh-Hans', zh: 'zh-Hant' };

function languageName(code: string, readerLocale: string): string {
  return new Intl.DisplayNames([readerLocale], { type: 'language' }).of(DISPLAY_TAG[code] ?? code) ?? code;
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The document's HTML with the notice placed right under its title (the first `<h1>`). */
function withNotice(html: string, notice: string): string {
  const block = `<blockquote class="legal-notice" data-testid="legal-translation-notice"><p>${escapeHtml(notice)}</p></blockquote>`;
  const end = html.indexOf('</h1>');
  if (end < 0) return block + html;
  const cut = end + '</h1>'.length;
  return `${html.slice(0, cut)}\n${block}${html.slice(cut)}`;
}

/**
 * Privacy, Google-variant privacy and terms of use (spec 2.1) in the page language. A translation
 * carries a notice, in the page language, that the governing version prevails (ADR 003); a language
 * without its own text shows the English text under a note saying so.
 */
export function Component() {
  const doc = useLoaderData() as TLegalDocument;
  const { t, intl } = useI18n();
  let html = doc.html;
  if (doc.translated && doc.lang !== doc.governing) {
    const language = languageName(doc.governing, intl);
    html = withNotice(
      html,
      doc.translatedFrom
        ? t('legal.translationNoticeFrom', { source: languageName(doc.translatedFrom, intl), language })
        : t('legal.translationNotice', { language }),
    );
  }
  return (
    <article className="legal" data-testid="legal-page">
      {!doc.translated && (
        <p className="alert alert-info legal-note" data-testid="legal-untranslated">
          {t('legal.englishOnly')}
        </p>
      )}
      <div
        className="legal-body"
        lang={doc.translated ? undefined : doc.lang}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: rendered by the server from the project's own Markdown files; the notice is escaped
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </article>
  );
}
