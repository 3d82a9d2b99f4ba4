/** The trading module's public face: the only file other modules and the HTTP layer import. */

export { actorAccount, engineKey, traderOf } from './account-access';
export {
  accountCategories,
  accountInfo,
  listAccounts,
  marginPreview,
  openPositions,
  pendingOrders,
} from './account-queries';
export {
  cancelOrderAsDealer,
  closePositionAsDealer,
  moveAccount,
  resetDemoAccount,
  restrictAccount,
} from './admin/account-actions';
export type { TDealerPorts } from './admin/customer-accounts';
export {
  accountGroups,
  accountRow,
  customerAccount,
  thresholdFor,
} from './admin/customer-accounts';
export { customerDeals, customerFinishedOrders, customerLedger } from './admin/customer-history';
export type { TRiskPorts, TScope } from './admin/exposure';
export { brokerAccounts, exposureReport, inScope } from './admin/exposure';
export { accountGroupOrDefault, brokerGroups, groupNames, listGroupTerms } from './admin/group-store';
export { groupTerms, saveGroupTerms } from './admin/group-terms';
export type { TGroupPorts } from './admin/groups';
export { deleteGroup, listGroups, saveGroup, setDefaultGroup } from './admin/groups';
export { listLevels, previewLevels, saveLevels } from './admin/levels';
export { customerNames } from './admin/lookups';
export { marginCallReport } from './admin/margin-calls';
export { cancelOrder } from './cancel-order';
export { closeAll } from './close-all';
export { closePosition } from './close-position';
export type { TDealRow, TLedgerRow } from './copy-queries';
export {
  accountDeals,
  accountLedger,
  copyRelationsPage,
  copySkipCounts,
  copySkipsOf,
  storedCopyRelation,
} from './copy-queries';
export { EngineHost } from './engine-host';
export { dealHistory, orderHistory } from './history';
export { modifyOrder } from './modify-order';
export { modifyPosition } from './modify-position';
export { openAccount } from './open-account';
export { placeOrder } from './place-order';
export type { TTradingPorts } from './ports';
export { closedDealsByCurrency, countOpenAccounts, openPositionIds } from './queries';
export { resetDemo } from './reset-demo';
export { engineError, submitOrThrow } from './results';
export type { TBrokerStrategy, TStoredStrategy } from './strategy-queries';
export {
  brokerStrategiesPage,
  brokerStrategy,
  nextStrategyId,
  storedStrategies,
  strategyLog,
} from './strategy-queries';
export { mainAccount, openSubAccount, SUB_ACCOUNT_LIMITS, subAccountsOf } from './sub-accounts';
export { applyMarketConfig, ensureDefaultGroup } from './terms-sync';
export { fromScaled, money, toScaled, unitsToLots } from './units';
export { accountSnapshot, orderView, positionView } from './views';
