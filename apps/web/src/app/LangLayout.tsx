import { useEffect } from 'react';
import { Outlet, useLocation, useMatches } from 'react-router';
import { DownloadPrompt } from '../components/DownloadPrompt';
import { adoptTraderAppearance } from '../lib/appearance';
import { readCookie } from '../lib/cookies';
import { useI18n } from '../lib/i18n';
import { useShell } from '../lib/store';
import { pageTitle } from './title';

/**
 * Everything under /{lang}: keeps the document title in step on client-side navigation, and marks
 * `<html data-path>` with the address of the page on screen once it has rendered (browser tests
 * wait for it after a client-side navigation, as they wait for `data-hydrated` after a load). A
 * signed-in browser without the appearance cookies (signed in by another provider) takes the
 * trader's stored ones, so the next page renders in the trader's colours.
 */
export function LangLayout() {
  const { t, lang } = useI18n();
  const { user } = useShell();
  const matches = useMatches();
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = pageTitle(matches, t);
  }, [matches, t]);
  useEffect(() => {
    document.documentElement.dataset.path = pathname;
  }, [pathname]);
  useEffect(() => {
    if (user && readCookie('klineColor') === undefined) void adoptTraderAppearance(lang);
  }, [user, lang]);
  return (
    <>
      <Outlet />
      <DownloadPrompt />
    </>
  );
}
