/** The alerts module's public face: the only file other modules and the HTTP layer import. */
export { AlertIndex } from './alert-index';
export type { TAlertsPorts } from './alerts';
export { createAlert, deleteAlert, listAlerts, rearmAlert, updateAlert } from './alerts';
export type { TAlertDeliveryPorts } from './delivery';
export { deliverAlert } from './delivery';
export type { TAlertRow } from './terms';
export type { TAlertMarket, TAlertWatcherPorts } from './watcher';
export { PriceAlertWatcher } from './watcher';
