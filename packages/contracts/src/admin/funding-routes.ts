import { z } from 'zod';
import {
  DEPOSIT_STATES,
  KYC_DOCUMENT_TYPES,
  WITHDRAWAL_STATES,
  ZDeposit,
  ZFundingMethod,
  ZKycState,
  ZMoney,
  ZWithdrawal,
} from '../funding-routes';
import { define, empty } from '../route-kit';
import { ADMIN_FUNDING_PATHS as PATHS } from './funding-paths';

const ZId = z.string().trim().min(1).max(64);
const ZPage = z.number().int().min(1).default(1);
const ZSize = z.number().int().min(1).max(100).default(20);
const ZDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'dateFormat');
/** Spec 5: rejecting a review needs a reason of at most 20 characters. */
export const ZReviewReason = z.string().trim().min(1, 'required').max(20, 'reasonLength');

/** A risk flag shown to the reviewer of a withdrawal. */
export const WITHDRAWAL_FLAGS = [
  /** Asked from a device (fingerprint) not seen on this user before the last 7 days. */
  'new_device',
  /** The destination differs from every earlier payout and deposit source. */
  'new_destination',
  /** Money deposited and asked back with no trade in between. */
  'no_trading',
  /** Three or more withdrawals asked within 24 hours. */
  'velocity',
  /** The funding password was changed in the last 72 hours. */
  'password_changed',
  /** Above the four-eyes threshold: a second staff member must approve. */
  'four_eyes',
] as const;
export const ZWithdrawalFlag = z.enum(WITHDRAWAL_FLAGS);

export const ZCustomerBrief = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  country: z.string().nullable(),
  kyc: ZKycState,
  createdAt: z.string(),
});

export const ZAdminWithdrawal = ZWithdrawal.extend({
  customer: ZCustomerBrief,
  flags: z.array(ZWithdrawalFlag),
  /** The destination unmasked, for the reviewer. */
  destinationFull: z.string(),
  /** Four-eyes: the first approver, while a second one is needed. */
  firstApprovedBy: z.string().nullable(),
  decidedBy: z.string().nullable(),
  /** USD equivalent, for the threshold. */
  amountUsd: z.string(),
});
export type TAdminWithdrawal = z.infer<typeof ZAdminWithdrawal>;

export const ZAdminDeposit = ZDeposit.extend({
  customer: ZCustomerBrief,
  providerRef: z.string().nullable(),
});

export const ZKycSubmission = z.object({
  id: z.string(),
  level: z.enum(['basic', 'senior']),
  status: ZKycState,
  customer: ZCustomerBrief,
  submittedAt: z.string(),
  reviewedAt: z.string().nullable(),
  reviewedBy: z.string().nullable(),
  rejectReason: z.string().nullable(),
  /** Basic level. */
  details: z
    .object({
      firstName: z.string(),
      lastName: z.string(),
      birthDate: z.string(),
      country: z.string(),
      documentType: z.enum(KYC_DOCUMENT_TYPES),
      documentNumber: z.string(),
    })
    .nullable(),
  /** Senior level. */
  address: z.object({ addressLine: z.string(), city: z.string(), postalCode: z.string() }).nullable(),
  /** The files, viewable in the back office (staff-session URLs): role, MIME type, size, URL. */
  files: z.array(
    z.object({
      role: z.enum(['front', 'back', 'selfie', 'proof', 'video']),
      mime: z.string(),
      bytes: z.number().int(),
      url: z.string(),
    }),
  ),
});
export type TKycSubmission = z.infer<typeof ZKycSubmission>;

/** A payment that reached the broker without a matching deposit: a bank transfer or a chain payment. */
export const ZUnmatchedPayment = z.object({
  id: z.string(),
  method: ZFundingMethod,
  amount: z.string(),
  currency: z.string(),
  /** The bank reference or chain transaction hash as received. */
  reference: z.string(),
  /** The deposit it most likely belongs to (reference or address match), if any. */
  suggestedDepositId: z.string().nullable(),
  receivedAt: z.string(),
  status: z.enum(['unmatched', 'matched', 'returned']),
});

export const ZMethodSettings = z.object({
  method: ZFundingMethod,
  depositEnabled: z.boolean(),
  depositMin: ZMoney,
  depositMax: ZMoney,
  depositFeeBp: z.number().int().min(0).max(2_000),
  depositFeeFixed: ZMoney,
  withdrawEnabled: z.boolean(),
  withdrawMin: ZMoney,
  withdrawMax: ZMoney,
  withdrawFeeBp: z.number().int().min(0).max(2_000),
  withdrawFeeFixed: ZMoney,
});

export const ZFundingSettings = z.object({
  methods: z.array(ZMethodSettings),
  /** Withdrawals above this (USD) need a second approver (four-eyes). */
  fourEyesUsd: ZMoney,
  /** Hours withdrawals stay locked after a funding password change (spec 9). */
  fundPasswordLockHours: z.number().int().min(0).max(720),
  /** Coins (cents) granted per configured activity. */
  coinRules: z.object({
    first_deposit: z.number().int().min(0).max(10_000),
    kyc_approved: z.number().int().min(0).max(10_000),
    contest_entry: z.number().int().min(0).max(10_000),
  }),
});
export type TFundingSettings = z.infer<typeof ZFundingSettings>;

export const fundingAdminRoutes = {
  adminfundingqueue: define({
    name: 'adminfundingqueue',
    path: PATHS.adminfundingqueue,
    access: { kind: 'staff', permission: 'funding.view' },
    mutates: false,
    summary: 'Deposits or withdrawals by state, method and customer, newest first, with counts per state',
    input: z.object({
      kind: z.enum(['deposit', 'withdrawal']),
      status: z.enum([...DEPOSIT_STATES, ...WITHDRAWAL_STATES]).optional(),
      method: ZFundingMethod.optional(),
      userId: ZId.optional(),
      page: ZPage,
      size: ZSize,
    }),
    output: z.object({
      deposits: z.array(ZAdminDeposit),
      withdrawals: z.array(ZAdminWithdrawal),
      total: z.number().int(),
      counts: z.record(z.string(), z.number().int()),
      page: z.number().int(),
      size: z.number().int(),
    }),
  }),
  adminwithdrawreview: define({
    name: 'adminwithdrawreview',
    path: PATHS.adminwithdrawreview,
    access: { kind: 'staff', permission: 'funding.view' },
    mutates: false,
    summary: "One withdrawal with the customer, the risk flags and the customer's recent money movements",
    input: z.object({ id: ZId }),
    output: z.object({
      withdrawal: ZAdminWithdrawal,
      recent: z.array(
        z.object({ kind: z.string(), amount: z.string(), currency: z.string(), at: z.string() }),
      ),
    }),
  }),
  adminwithdrawapprove: define({
    name: 'adminwithdrawapprove',
    path: PATHS.adminwithdrawapprove,
    access: { kind: 'staff', permission: 'funding.review' },
    mutates: true,
    summary:
      'Approves a withdrawal and sends the payout; above the threshold the first approval waits for a second person',
    input: z.object({ id: ZId }),
    output: ZAdminWithdrawal,
  }),
  adminwithdrawreject: define({
    name: 'adminwithdrawreject',
    path: PATHS.adminwithdrawreject,
    access: { kind: 'staff', permission: 'funding.review' },
    mutates: true,
    summary: 'Rejects a withdrawal with a reason of at most 20 characters; the held amount is released',
    input: z.object({ id: ZId, reason: ZReviewReason }),
    output: ZAdminWithdrawal,
  }),
  admindepositdetail: define({
    name: 'admindepositdetail',
    path: PATHS.admindepositdetail,
    access: { kind: 'staff', permission: 'funding.view' },
    mutates: false,
    summary: 'One deposit with the customer and the provider reference',
    input: z.object({ id: ZId }),
    output: ZAdminDeposit,
  }),
  adminunmatched: define({
    name: 'adminunmatched',
    path: PATHS.adminunmatched,
    access: { kind: 'staff', permission: 'funding.view' },
    mutates: false,
    summary: 'Bank transfers and chain payments that match no deposit, with a suggested match',
    input: z.object({ status: z.enum(['unmatched', 'matched', 'returned']).default('unmatched') }),
    output: z.object({ items: z.array(ZUnmatchedPayment) }),
  }),
  adminreconcile: define({
    name: 'adminreconcile',
    path: PATHS.adminreconcile,
    access: { kind: 'staff', permission: 'funding.reconcile' },
    mutates: true,
    summary: 'Matches a received payment to a deposit and credits it (once), or marks it returned',
    input: z.union([
      z.object({ paymentId: ZId, action: z.literal('match'), depositId: ZId }),
      z.object({ paymentId: ZId, action: z.literal('return'), reason: ZReviewReason }),
    ]),
    output: z.object({ payment: ZUnmatchedPayment, deposit: ZDeposit.nullable() }),
  }),
  adminreconciliation: define({
    name: 'adminreconciliation',
    path: PATHS.adminreconciliation,
    access: { kind: 'staff', permission: 'funding.view' },
    mutates: false,
    summary: "A day's ledger against each provider's records, with every mismatch listed",
    input: z.object({ day: ZDay }),
    output: z.object({
      day: z.string(),
      providers: z.array(
        z.object({
          provider: z.string(),
          ledgerIn: z.string(),
          providerIn: z.string(),
          ledgerOut: z.string(),
          providerOut: z.string(),
          currency: z.string(),
          mismatches: z.array(
            z.object({
              reference: z.string(),
              /** missing_in_ledger, missing_at_provider, amount_differs. */
              problem: z.string(),
              ledgerAmount: z.string().nullable(),
              providerAmount: z.string().nullable(),
            }),
          ),
        }),
      ),
    }),
  }),
  adminfundingsettings: define({
    name: 'adminfundingsettings',
    path: PATHS.adminfundingsettings,
    access: { kind: 'staff', permission: 'funding.view' },
    mutates: false,
    summary: "The broker's funding settings: methods, limits, fees, four-eyes threshold, lock hours, coins",
    input: empty,
    output: ZFundingSettings,
  }),
  adminfundingsettingssave: define({
    name: 'adminfundingsettingssave',
    path: PATHS.adminfundingsettingssave,
    access: { kind: 'staff', permission: 'funding.settings' },
    mutates: true,
    summary: "Saves the broker's funding settings (audited with before and after)",
    input: ZFundingSettings,
    output: ZFundingSettings,
  }),
  adminkycqueue: define({
    name: 'adminkycqueue',
    path: PATHS.adminkycqueue,
    access: { kind: 'staff', permission: 'kyc.view' },
    mutates: false,
    summary: 'KYC submissions by state and level, oldest waiting first, with counts per state',
    input: z.object({
      status: ZKycState.optional(),
      level: z.enum(['basic', 'senior']).optional(),
      userId: ZId.optional(),
      page: ZPage,
      size: ZSize,
    }),
    output: z.object({
      items: z.array(ZKycSubmission),
      total: z.number().int(),
      counts: z.record(z.string(), z.number().int()),
      page: z.number().int(),
      size: z.number().int(),
    }),
  }),
  adminkycdetail: define({
    name: 'adminkycdetail',
    path: PATHS.adminkycdetail,
    access: { kind: 'staff', permission: 'kyc.view' },
    mutates: false,
    summary: 'One KYC submission with its files, and the earlier submissions of the customer',
    input: z.object({ id: ZId }),
    output: z.object({ submission: ZKycSubmission, earlier: z.array(ZKycSubmission) }),
  }),
  adminkycapprove: define({
    name: 'adminkycapprove',
    path: PATHS.adminkycapprove,
    access: { kind: 'staff', permission: 'kyc.review' },
    mutates: true,
    summary: 'Approves a waiting KYC submission',
    input: z.object({ id: ZId }),
    output: ZKycSubmission,
  }),
  adminkycreject: define({
    name: 'adminkycreject',
    path: PATHS.adminkycreject,
    access: { kind: 'staff', permission: 'kyc.review' },
    mutates: true,
    summary: 'Rejects a waiting KYC submission with a reason of at most 20 characters',
    input: z.object({ id: ZId, reason: ZReviewReason }),
    output: ZKycSubmission,
  }),
} as const;
