/** The market module's public face: the only file other modules and the HTTP layer import. */
export type { TGroupNamesOf, TStaffNamesOf } from './admin/history';
export { listHistory, recordConfigChange } from './admin/history';
export type {
  TGroupOverridesOf,
  TGroupOverridesRecord,
  TInstrumentPorts,
  TMarketAdminPorts,
} from './admin/instruments';
export { listInstruments, marketQuotes, saveInstrument } from './admin/instruments';
export type { TErrorLog, TLivePorts } from './admin/live';
export { applyLive } from './admin/live';
export { configInvalid, throwIfProblems } from './admin/problems';
export { findInstrumentRecord, instrumentRows } from './admin/store';
export { assetKind, convert, convertibleCurrencies } from './converter';
export { createFeed } from './feed/create-feed';
export type { TPriceFeedAdapter, TTick } from './feed/types';
export { countEnabledSymbols, ensureInstruments } from './instruments-store';
export type { TMarketEvent, TQuote } from './market-service';
export { MarketService } from './market-service';
export { assetName, symbolName } from './names';
export { UsdConverter, usd } from './usd';
