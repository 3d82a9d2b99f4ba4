import { paths } from './paths';

/**
 * The pages an anonymous visitor most likely opens next from a page (issue 21, item 14): after idle
 * the portal warms only their chunks, not every linked page's (the home page linked 21, 258 KB with
 * the terminal's chart code). Home leads to registration, sign-in and the markets; the markets to a
 * symbol and the terminal; sign-in and registration to each other. Elsewhere, sign-in and registration.
 * A signed-in trader's likely pages are their own (`likelyForTrader`).
 */
export function likelyNextPaths(pathname: string, signedIn = false): string[] {
  const [, lang = 'en', page = '', detail] = pathname.split(/[/?#]/);
  if (signedIn) return likelyForTrader(lang, page, detail);
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

/**
 * The same for a signed-in trader. Warming every page linked from the terminal (its menus link about
 * twenty) ran each page's module on a phone's main thread after the load: hundreds of milliseconds
 * of long tasks for pages most traders do not open. The terminal leads to the accounts, a deposit
 * and the markets; the personal centre back to the terminal and to a deposit; other pages to the
 * terminal and the accounts.
 */
function likelyForTrader(lang: string, page: string, detail: string | undefined): string[] {
  const accounts = paths.personalCenter(lang, 'account');
  const deposit = paths.personalCenter(lang, 'deposit');
  switch (page) {
    case 'trade':
      return [accounts, deposit, paths.markets(lang)];
    case 'personalCenter':
      return detail === 'deposit' ? [paths.trade(lang), accounts] : [paths.trade(lang), deposit];
    case 'markets':
      return detail ? [paths.trade(lang)] : [paths.trade(lang), paths.symbol(lang, 'EURUSD')];
    default:
      return [paths.trade(lang), accounts];
  }
}
