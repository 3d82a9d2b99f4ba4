import type { TRouteInput, TRouteName, TRouteOutput } from '@broker/contracts/routes';
import type { TWebHost } from '@broker/contracts/web-host';
import { readCookie } from '../../lib/cookies';
import { ACCOUNT_COOKIE, accountsLoaded, INITIAL_ACCOUNT_STATE } from '../../lib/trading/account-state';
import type { TTradingBoot } from '../../lib/trading/store';
import type { TCatalogueBoot, TTradeSettings } from './useTradeData';

/**
 * What the terminal needs for its first screen, read on the server as the signed-in trader: their
 * accounts and the current account's figures, the catalogue with its last quotes, the saved chart
 * layout and the display settings. The page then renders the whole terminal from the first byte
 * (its largest text is painted with the page, not three round trips after hydration) and the
 * browser subscribes to the prices of the symbols on screen as soon as it has hydrated.
 */
export interface TTerminalBoot {
  trading: TTradingBoot;
  catalogue: TCatalogueBoot;
  /** The trader's saved layout, null for one who has none yet (the terminal's default then). */
  layout: unknown;
  settings: TTradeSettings;
}

/**
 * Reads the terminal's first screen through the host's gateway calls. Any call that fails (a session
 * that just ended, a rate limit) answers null: the page then renders its loading frame and the
 * browser loads the terminal as it always did. The page is sent `no-store`: the data is never cached.
 */
export async function loadTerminalBoot(
  host: TWebHost,
  request: Request,
  lang: string,
): Promise<TTerminalBoot | null> {
  const call = <N extends TRouteName>(name: N, input: TRouteInput<N>) =>
    host.callRoute(request, lang, name, input);
  const [accounts, layout, settings, quotes] = await Promise.all([
    call('accountlist', {}),
    call('chartlayout', {}),
    call('settings', {}),
    call('currencyall', {}),
  ]);
  if (!accounts.succeed || !accounts.Data || !layout.succeed) return null;
  if (!settings.succeed || !settings.Data || !quotes.succeed || !quotes.Data) return null;
  // The account cookie (spec 4) read as the browser reads it, from the request's header.
  const accountCookie = readCookie(ACCOUNT_COOKIE, request.headers.get('cookie') ?? '') ?? null;
  const { state } = accountsLoaded(INITIAL_ACCOUNT_STATE, accounts.Data, accountCookie ?? undefined);
  const accountId = state.accountId;
  // A trader without an account gets the terminal's "open an account" screen from the first byte.
  const [info, positions, orders, ownSymbols] = accountId
    ? await Promise.all([
        call('info', { account_id: accountId }),
        call('positions', { account_id: accountId }),
        call('pendingorders', { account_id: accountId }),
        call('symbols', { account_id: accountId }),
      ])
    : [null, null, null, null];
  if (accountId && !(info?.succeed && positions?.succeed && positions.Data && orders?.succeed && orders.Data))
    return null;
  // As the browser does: an account the server does not know (yet) reads the broker's catalogue.
  const symbols: TRouteOutput<'symbols'> | null = ownSymbols?.succeed
    ? ownSymbols.Data
    : (await call('symbols', {})).Data;
  if (!symbols) return null;
  return {
    trading: {
      accounts: accounts.Data,
      accountCookie,
      info: info?.Data ?? null,
      positions: positions?.Data ?? [],
      orders: orders?.Data ?? [],
    },
    catalogue: { accountId, items: quotes.Data, symbols },
    layout: layout.Data?.layout ?? null,
    settings: { notification: settings.Data.notification, display: settings.Data.display },
  };
}
