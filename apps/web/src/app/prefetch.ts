import { paths } from './paths';

/**
 * The pages an anonymous visitor most likely opens next from a page (issue 21, item 14): after idle
 * the portal warms only their chunks, not every linked page's (the home page linked 21, 258 KB with
 * the terminal's chart code). Home leads to registration, sign-in and the markets; the markets to a
 * symbol and the terminal; sign-in and registration to each other. Elsewhere, sign-in and registration.
 */
export function likelyNextPaths(pathname: string): string[] {
  const [, lang = 'en', page = '', detail] = pathname.split(/[/?#]/);
  const auth = [paths.register(lang), paths.login(lang)];
  switch (page) {
    case '':
      return [...auth, paths.markets(lang)];
    case 'markets':
      return detail ? [paths.trade(lang), ...auth] : [paths.symbol(lang, 'EURUSD'), paths.trade(lang)];
    case 'login':
      return [paths.register(lang), paths.forgotPassword(lang), paths.qrcode(lang)];
    case 'register':
      return [paths.login(lang)];
    case 'trade':
      return [paths.markets(lang), ...auth];
    default:
      return auth;
  }
}
