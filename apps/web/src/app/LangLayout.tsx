import { useEffect } from 'react';
import { Outlet, useMatches } from 'react-router';
import { DownloadPrompt } from '../components/DownloadPrompt';
import { useI18n } from '../lib/i18n';
import { pageTitle } from './title';

/** Everything under /{lang}: keeps the document title in step on client-side navigation. */
export function LangLayout() {
  const { t } = useI18n();
  const matches = useMatches();
  useEffect(() => {
    document.title = pageTitle(matches, t);
  }, [matches, t]);
  return (
    <>
      <Outlet />
      <DownloadPrompt />
    </>
  );
}
