/** Spec 4 close reasons by number, as the back office names them (a customer's history, a bot's log). */
export const CLOSE_REASON_LABELS: Readonly<Record<number, string>> = {
  1: 'admin.customers.closeReason.manual',
  2: 'admin.customers.closeReason.stopOut',
  3: 'admin.customers.closeReason.takeProfitStopLoss',
  4: 'admin.customers.closeReason.copy',
  5: 'admin.customers.closeReason.strategyAuto',
  6: 'admin.customers.closeReason.strategyManual',
  7: 'admin.customers.closeReason.cancellation',
};
