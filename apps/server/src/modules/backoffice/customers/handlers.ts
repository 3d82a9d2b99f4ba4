import type { customersRoutes } from '@broker/contracts/admin/customers-routes';
import type { THandlers } from '../../../http/gateway';
import {
  cancelOrderAsDealer,
  closePositionAsDealer,
  moveAccount,
  resetDemoAccount,
  restrictAccount,
} from './account-actions';
import {
  approveAdjustment,
  listAdjustments,
  rejectAdjustment,
  requestAdjustment,
  saveThreshold,
} from './adjustments';
import { setCustomerStatus, signOutCustomer } from './customer-access';
import { customerContact, customerDetail } from './customer-detail';
import { customerDeals, customerFinishedOrders, customerLedger } from './customer-history';
import { addNote } from './notes';
import { searchCustomers } from './search-customers';

/** Handlers of the back office's customers routes. */
export const customersHandlers: Pick<THandlers, keyof typeof customersRoutes> = {
  admincustomerlist: (input, ctx) => searchCustomers(ctx, input),
  admincustomerdetail: (input, ctx) => customerDetail(ctx, input.userId),
  admincustomercontact: (input, ctx) => customerContact(ctx, input.userId),
  admincustomerdeals: (input, ctx) => customerDeals(ctx, input),
  admincustomerorders: (input, ctx) => customerFinishedOrders(ctx, input),
  admincustomerledger: (input, ctx) => customerLedger(ctx, input),
  admincustomerstatus: (input, ctx) => setCustomerStatus(ctx, input),
  admincustomersignout: (input, ctx) => signOutCustomer(ctx, input.userId),
  admincustomerrestrict: (input, ctx) => restrictAccount(ctx, input),
  admincustomerdemoreset: (input, ctx) => resetDemoAccount(ctx, input),
  admincustomerpositionclose: (input, ctx) => closePositionAsDealer(ctx, input),
  admincustomerordercancel: (input, ctx) => cancelOrderAsDealer(ctx, input),
  admincustomermovegroup: (input, ctx) => moveAccount(ctx, input),
  admincustomernote: (input, ctx) => addNote(ctx, input),
  admincustomeradjust: (input, ctx) => requestAdjustment(ctx, input),
  admincustomeradjustments: (input, ctx) => listAdjustments(ctx, input),
  admincustomerapprove: (input, ctx) => approveAdjustment(ctx, input.id),
  admincustomerreject: (input, ctx) => rejectAdjustment(ctx, input),
  admincustomerthreshold: (input, ctx) => saveThreshold(ctx, input.amount),
};
