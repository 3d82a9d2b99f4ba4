import type { TRouteOutput } from '@broker/contracts/routes';
import { useCall, useLoad } from '../../lib/use-call';

export type TLeaderSummary = TRouteOutput<'followleaders'>['items'][number];
export type TLeaderList = TRouteOutput<'followleaders'>;
export type TLeaderProfile = TRouteOutput<'followleader'>;
export type TWhatIf = TRouteOutput<'followwhatif'>;
export type TCopy = TRouteOutput<'followmine'>['items'][number];
export type TMine = TRouteOutput<'followmine'>;
export type TParity = TRouteOutput<'followparity'>;
export type TParityTrade = TParity['trades'][number];
export type TDashboard = TRouteOutput<'followdashboard'>;
export type TLeaderAccount = TDashboard['leaders'][number];
export type TMainAccount = TRouteOutput<'accountlist'>[number];

/** Account types that may lead: 1 demo and 2 real main accounts (not experience). */
export const LEADER_ACCOUNT_TYPES: readonly number[] = [1, 2];

/** The trader's main accounts (the personal centre's list), for the follow and apply forms; `enabled` false reads nothing. */
export function useMainAccounts(enabled = true) {
  const call = useCall();
  return useLoad<TMainAccount[]>(enabled ? 'accounts' : null, (signal) => call('accountlist', {}, signal));
}
