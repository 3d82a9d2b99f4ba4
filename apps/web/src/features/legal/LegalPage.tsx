import type { TLegalDocument } from '@broker/contracts/web-host';
import { useLoaderData } from 'react-router';
import { useI18n } from '../../lib/i18n';

/** Privacy, Google-variant privacy and terms of use (spec 2.1); English text with a note where untranslated. */
export function Component() {
  const doc = useLoaderData() as TLegalDocument;
  const { t } = useI18n();
  return (
    <article className="legal" data-testid="legal-page">
      {!doc.translated && (
        <p className="alert alert-info legal-note" data-testid="legal-untranslated">
          {t('legal.englishOnly')}
        </p>
      )}
      <div
        className="legal-body"
        lang={doc.translated ? undefined : 'en'}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: rendered by the server from the project's own Markdown files
        dangerouslySetInnerHTML={{ __html: doc.html }}
      />
    </article>
  );
}
