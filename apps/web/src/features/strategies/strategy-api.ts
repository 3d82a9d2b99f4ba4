import type { TRouteOutput } from '@broker/contracts/routes';

export type TStrategy = TRouteOutput<'strategylist'>['items'][number];
export type TStrategyDetail = TRouteOutput<'strategydetail'>;
export type TPreview = TRouteOutput<'strategypreview'>;
export type TMainAccount = TRouteOutput<'accountlist'>[number];
