import { z } from 'zod';
import { define } from '../route-kit';
import { ZDeal, ZFinishedOrder, ZPendingOrder, ZPosition } from '../trading-routes';
import { CUSTOMERS_PATHS as PATHS } from './customers-paths';

const ZUserId = z.string().trim().min(1).max(64);
const ZAccountId = z.coerce.number().int().positive();
const ZKey = z.string().min(8).max(64);
const ZPage = z.number().int().min(1).default(1);
const ZSize = z.number().int().min(1).max(100).default(20);
/** Money in the account currency: a decimal string with at most 2 decimals; signed for adjustments. */
const ZSignedMoney = z
  .string()
  .trim()
  .regex(/^-?\d{1,13}(\.\d{1,2})?$/, 'amountFormat');
const ZMoney = z
  .string()
  .trim()
  .regex(/^\d{1,13}(\.\d{1,2})?$/, 'amountFormat');

export const KYC_STATUSES = ['none', 'pending', 'approved', 'rejected'] as const;
export const ZKycStatus = z.enum(KYC_STATUSES);
export const ZUserStatus = z.enum(['active', 'disabled']);
export const ADJUSTMENT_STATUSES = ['pending', 'approving', 'approved', 'rejected', 'applied'] as const;
export const ZAdjustmentStatus = z.enum(ADJUSTMENT_STATUSES);

/** Per-account restrictions (spec 6): no open, close, take-profit, stop-loss or withdrawal. */
export const ZRestrictions = z.object({
  noOpen: z.boolean(),
  noClose: z.boolean(),
  noTakeProfit: z.boolean(),
  noStopLoss: z.boolean(),
  noWithdraw: z.boolean(),
});

/** One row of the customer search. Contacts are masked (spec 5). */
export const ZCustomerRow = z.object({
  id: z.string(),
  name: z.string(),
  nick: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  /** ISO 3166 alpha-2, for a localized name with Intl.DisplayNames. */
  country: z.string().nullable(),
  status: ZUserStatus,
  kyc: ZKycStatus,
  twoFactor: z.boolean(),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
  /** Open (not closed) trading accounts. */
  accounts: z.number().int(),
});

/** A trading account with its live figures (decimal strings in the account currency). */
export const ZCustomerAccount = z.object({
  accountId: z.number().int(),
  /** Spec 3: 1 demo, 2 and 3 (real, experience), 4 MT4, 5 MT5. */
  accountType: z.number().int(),
  tradeType: z.number().int(),
  currency: z.string(),
  leverage: z.number().int(),
  balance: z.string(),
  equity: z.string(),
  margin: z.string(),
  freeMargin: z.string(),
  /** Percent with 2 decimals, "0.00" without margin. */
  marginLevel: z.string(),
  floatingProfit: z.string(),
  marginCall: z.boolean(),
  closed: z.boolean(),
  createdAt: z.string(),
  groupId: z.string().nullable(),
  groupName: z.string().nullable(),
  restrictions: ZRestrictions,
  positions: z.number().int(),
  orders: z.number().int(),
  /** Adjustments larger than this (account currency) wait for a second staff member; null: never. */
  approvalThreshold: z.string().nullable(),
});

export const ZCustomerSession = z.object({
  id: z.string(),
  device: z.string(),
  ip: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  state: z.enum(['active', 'revoked', 'expired']),
});

export const ZCustomerNote = z.object({
  id: z.string(),
  body: z.string(),
  staffName: z.string(),
  createdAt: z.string(),
});

export const ZAdjustment = z.object({
  id: z.string(),
  userId: z.string(),
  userName: z.string(),
  accountId: z.number().int(),
  /** Signed decimal string in the account currency. */
  amount: z.string(),
  currency: z.string(),
  reason: z.string(),
  status: ZAdjustmentStatus,
  requestedBy: z.string(),
  requestedAt: z.string(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  rejectReason: z.string().nullable(),
  /** The caller asked for it, so the caller cannot approve it. */
  mine: z.boolean(),
});

export const ZCustomerProfile = ZCustomerRow.omit({ accounts: true }).extend({
  failedSignIns: z.number().int(),
  lockedUntil: z.string().nullable(),
});

const ZUserAccount = z.object({ userId: ZUserId, accountId: ZAccountId });
const ZHistoryPage = ZUserAccount.extend({
  /** Milliseconds since the epoch; default everything. */
  from: z.number().int().min(0).optional(),
  to: z.number().int().min(0).optional(),
  page: ZPage,
  size: ZSize,
});
const paged = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), size: z.number().int() });

export const ZLedgerEntry = z.object({
  txId: z.number().int(),
  kind: z.string(),
  amount: z.string(),
  balanceAfter: z.string(),
  time: z.number().int(),
  positionId: z.number().int().nullable(),
});

const view = { kind: 'staff', permission: 'users.view' } as const;

/** The back office's customers routes: each names the permission it needs. */
export const customersRoutes = {
  admincustomerlist: define({
    name: 'admincustomerlist',
    path: PATHS.admincustomerlist,
    access: view,
    mutates: false,
    summary:
      "Searches the broker's customers by id prefix, trading account number, email, phone or name, with KYC and status filters, paged on the server",
    input: z.object({
      query: z.string().trim().max(100).default(''),
      kyc: ZKycStatus.optional(),
      status: ZUserStatus.optional(),
      sort: z.enum(['created', 'lastSignIn', 'name']).default('created'),
      direction: z.enum(['asc', 'desc']).default('desc'),
      page: ZPage,
      size: ZSize,
    }),
    output: paged(ZCustomerRow),
  }),
  admincustomerdetail: define({
    name: 'admincustomerdetail',
    path: PATHS.admincustomerdetail,
    access: view,
    mutates: false,
    summary:
      'One customer: profile, trading accounts with live figures, open positions, pending orders, sessions, notes and pending balance adjustments',
    input: z.object({ userId: ZUserId }),
    output: z.object({
      profile: ZCustomerProfile,
      accounts: z.array(ZCustomerAccount),
      positions: z.array(ZPosition),
      orders: z.array(ZPendingOrder),
      sessions: z.array(ZCustomerSession),
      notes: z.array(ZCustomerNote),
      adjustments: z.array(ZAdjustment),
      groups: z.array(z.object({ id: z.string(), name: z.string(), isDefault: z.boolean() })),
    }),
  }),
  admincustomercontact: define({
    name: 'admincustomercontact',
    path: PATHS.admincustomercontact,
    access: view,
    mutates: false,
    summary: "The customer's full email and phone (shown masked elsewhere); every look is in the audit trail",
    input: z.object({ userId: ZUserId }),
    output: z.object({ email: z.string().nullable(), phone: z.string().nullable() }),
  }),
  admincustomerdeals: define({
    name: 'admincustomerdeals',
    path: PATHS.admincustomerdeals,
    access: view,
    mutates: false,
    summary: "Closed positions of one of the customer's accounts, newest first",
    input: ZHistoryPage,
    output: paged(ZDeal),
  }),
  admincustomerorders: define({
    name: 'admincustomerorders',
    path: PATHS.admincustomerorders,
    access: view,
    mutates: false,
    summary: "Filled and cancelled pending orders of one of the customer's accounts, newest first",
    input: ZHistoryPage,
    output: paged(ZFinishedOrder),
  }),
  admincustomerledger: define({
    name: 'admincustomerledger',
    path: PATHS.admincustomerledger,
    access: view,
    mutates: false,
    summary: "Balance movements (ledger entries) of one of the customer's accounts, newest first",
    input: ZHistoryPage,
    output: paged(ZLedgerEntry),
  }),
  admincustomerstatus: define({
    name: 'admincustomerstatus',
    path: PATHS.admincustomerstatus,
    access: { kind: 'staff', permission: 'users.disable' },
    mutates: true,
    summary:
      'Disables a customer (signs them out everywhere and refuses their sign-in) or enables them again',
    input: z.object({
      userId: ZUserId,
      status: ZUserStatus,
      reason: z.string().trim().max(200).default(''),
    }),
    output: z.object({ status: ZUserStatus, revokedSessions: z.number().int() }),
  }),
  admincustomersignout: define({
    name: 'admincustomersignout',
    path: PATHS.admincustomersignout,
    access: { kind: 'staff', permission: 'users.disable' },
    mutates: true,
    summary: 'Ends every session of the customer (they must sign in again)',
    input: z.object({ userId: ZUserId }),
    output: z.object({ revokedSessions: z.number().int() }),
  }),
  admincustomerrestrict: define({
    name: 'admincustomerrestrict',
    path: PATHS.admincustomerrestrict,
    access: { kind: 'staff', permission: 'users.restrict' },
    mutates: true,
    summary: "Sets an account's restrictions: no open, close, take-profit, stop-loss or withdrawal",
    input: ZUserAccount.extend({ restrictions: ZRestrictions, idempotencyKey: ZKey }),
    output: ZCustomerAccount,
  }),
  admincustomerdemoreset: define({
    name: 'admincustomerdemoreset',
    path: PATHS.admincustomerdemoreset,
    access: { kind: 'staff', permission: 'users.demoReset' },
    mutates: true,
    summary:
      'Resets a demo account: closes every position, cancels every order, restores the 100,000 balance',
    input: ZUserAccount.extend({ idempotencyKey: ZKey }),
    output: ZCustomerAccount,
  }),
  admincustomerpositionclose: define({
    name: 'admincustomerpositionclose',
    path: PATHS.admincustomerpositionclose,
    access: { kind: 'staff', permission: 'users.trade' },
    mutates: true,
    summary:
      "Closes a customer's open position at the market, as a dealer (close reason 2, automatic), recorded in the audit trail",
    input: ZUserAccount.extend({ positionId: ZAccountId, idempotencyKey: ZKey }),
    output: ZCustomerAccount,
  }),
  admincustomerordercancel: define({
    name: 'admincustomerordercancel',
    path: PATHS.admincustomerordercancel,
    access: { kind: 'staff', permission: 'users.trade' },
    mutates: true,
    summary: "Cancels a customer's pending order, as a dealer, recorded in the audit trail",
    input: ZUserAccount.extend({ orderId: ZAccountId, idempotencyKey: ZKey }),
    output: ZCustomerAccount,
  }),
  admincustomermovegroup: define({
    name: 'admincustomermovegroup',
    path: PATHS.admincustomermovegroup,
    access: { kind: 'staff', permission: 'market.groups' },
    mutates: true,
    summary: 'Moves an account to another account group of the broker (refused while it has open trades)',
    input: ZUserAccount.extend({ groupId: z.string().min(1).max(64) }),
    output: ZCustomerAccount,
  }),
  admincustomernote: define({
    name: 'admincustomernote',
    path: PATHS.admincustomernote,
    access: { kind: 'staff', permission: 'users.note' },
    mutates: true,
    summary: 'Adds a staff note to the customer',
    input: z.object({ userId: ZUserId, body: z.string().trim().min(1).max(1000) }),
    output: ZCustomerNote,
  }),
  admincustomeradjust: define({
    name: 'admincustomeradjust',
    path: PATHS.admincustomeradjust,
    access: { kind: 'staff', permission: 'users.adjust' },
    mutates: true,
    summary:
      "Adjusts an account's balance with a reason (a ledger entry); above the broker's threshold it waits for another staff member's approval",
    input: ZUserAccount.extend({
      amount: ZSignedMoney,
      reason: z.string().trim().min(3).max(200),
      idempotencyKey: ZKey,
    }),
    output: ZAdjustment,
  }),
  admincustomeradjustments: define({
    name: 'admincustomeradjustments',
    path: PATHS.admincustomeradjustments,
    access: view,
    mutates: false,
    summary: "Balance adjustments of the broker's customers (pending first), with the approval threshold",
    input: z.object({
      status: z.enum(['pending', 'decided', 'all']).default('pending'),
      userId: ZUserId.optional(),
      page: ZPage,
      size: ZSize,
    }),
    output: paged(ZAdjustment).extend({ threshold: z.string() }),
  }),
  admincustomerapprove: define({
    name: 'admincustomerapprove',
    path: PATHS.admincustomerapprove,
    access: { kind: 'staff', permission: 'users.approve' },
    mutates: true,
    summary: 'Approves a pending balance adjustment (not its requester) and applies it once',
    input: z.object({ id: z.string().min(1).max(64) }),
    output: ZAdjustment,
  }),
  admincustomerreject: define({
    name: 'admincustomerreject',
    path: PATHS.admincustomerreject,
    access: { kind: 'staff', permission: 'users.approve' },
    mutates: true,
    summary: 'Rejects a pending balance adjustment with a reason of at most 20 characters',
    input: z.object({ id: z.string().min(1).max(64), reason: z.string().trim().min(1).max(20) }),
    output: ZAdjustment,
  }),
  admincustomerthreshold: define({
    name: 'admincustomerthreshold',
    path: PATHS.admincustomerthreshold,
    access: { kind: 'staff', permission: 'users.approve' },
    mutates: true,
    summary: 'Sets the amount (US dollars) above which a balance adjustment needs a second approval',
    input: z.object({ amount: ZMoney }),
    output: z.object({ threshold: z.string() }),
  }),
} as const;
