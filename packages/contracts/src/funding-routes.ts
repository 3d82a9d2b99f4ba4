import { z } from 'zod';
import { FUNDING_PATHS as PATHS } from './funding-paths';
import { define, empty } from './route-kit';

/** Money in an account currency: a decimal string with at most 2 decimals (cents for USC accounts). */
export const ZMoney = z
  .string()
  .trim()
  .regex(/^\d{1,13}(\.\d{1,2})?$/, 'amountFormat');
const ZAccountId = z.coerce.number().int().positive();
/** An idempotency key: 8–64 printable ASCII characters (a UUID, say). */
const ZKey = z
  .string()
  .min(8)
  .max(64)
  .regex(/^[\x20-\x7e]+$/);
const ZFileId = z.string().uuid();
const ZPage = z.number().int().min(1).default(1);
const ZSize = z.number().int().min(1).max(100).default(20);
const ZDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'dateFormat');
/** Funding password: 6 to 20 characters, no spaces, no Chinese characters (spec 5 password rules). */
export const ZFundPassword = z
  .string()
  .min(6, 'passwordLength')
  .max(20, 'passwordLength')
  .regex(/^[^\s\u3400-\u9fff]+$/, 'passwordChars');

// ---------------------------------------------------------------------------------------------
// KYC (spec 5, 6, 7.6)

/** none: nothing submitted; pending: waiting for review; approved; rejected (with a reason). */
export const KYC_STATES = ['none', 'pending', 'approved', 'rejected'] as const;
export const ZKycState = z.enum(KYC_STATES);
export const KYC_DOCUMENT_TYPES = ['passport', 'id_card', 'driving_licence'] as const;

export const ZKycInfo = z.object({
  /** The basic level (identity). Deposits and withdrawals need `approved` (spec 6). */
  status: ZKycState,
  /** The senior level (address and liveness), open once the basic level is approved. */
  seniorStatus: ZKycState,
  /** The reviewer's reason (at most 20 characters, spec 5) of the latest rejection. */
  rejectReason: z.string().nullable(),
  seniorRejectReason: z.string().nullable(),
  submittedAt: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  /** What was submitted (the document number masked but its last 4 characters). */
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
  /** Upload limits, so the form checks what the server checks: bytes. */
  limits: z.object({ image: z.number().int(), video: z.number().int() }),
});
export type TKycInfo = z.infer<typeof ZKycInfo>;

const ZName = z.string().trim().min(1, 'required').max(64);
export const ZCertificationInput = z.object({
  firstName: ZName,
  lastName: ZName,
  birthDate: ZDay,
  /** ISO 3166 alpha-2. */
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'countryFormat'),
  documentType: z.enum(KYC_DOCUMENT_TYPES),
  documentNumber: z
    .string()
    .trim()
    .min(4, 'documentNumber')
    .max(32, 'documentNumber')
    .regex(/^[A-Za-z0-9 -]+$/, 'documentNumber'),
  /** Uploaded files (purpose `kyc`): JPG or PNG up to 5 MB each; the selfie may be an MP4 or AVI up to 50 MB. */
  frontFileId: ZFileId,
  backFileId: ZFileId.nullable().optional(),
  selfieFileId: ZFileId,
});

export const ZSeniorAuthInput = z.object({
  addressLine: z.string().trim().min(3, 'required').max(200),
  city: z.string().trim().min(1, 'required').max(100),
  postalCode: z.string().trim().max(20).default(''),
  /** Proof of address: a JPG or PNG up to 5 MB. */
  proofFileId: ZFileId,
  /** Liveness video: an MP4 or AVI up to 50 MB. */
  videoFileId: ZFileId,
});

// ---------------------------------------------------------------------------------------------
// Methods, deposits, withdrawals

/** The built-in methods; each is served by one provider behind the payment-provider interface. */
export const FUNDING_METHODS = ['card', 'ewallet', 'usdt_trc20', 'usdt_erc20', 'bank'] as const;
export const ZFundingMethod = z.enum(FUNDING_METHODS);
export type TFundingMethod = z.infer<typeof ZFundingMethod>;

export const ZMethodInfo = z.object({
  method: ZFundingMethod,
  /** The provider id (`sandboxcard`, `sandboxwallet`, `sandboxchain`, `sandboxbank` or a real one). */
  provider: z.string(),
  /** What the trader pays in: USD for cards, e-wallets and banks, USDT for the chains. */
  currency: z.string(),
  deposit: z.object({
    enabled: z.boolean(),
    /** Per deposit, in the method currency. */
    min: z.string(),
    max: z.string(),
    /** Fee: basis points of the amount plus a fixed part (method currency); charged on top. */
    feeBp: z.number().int(),
    feeFixed: z.string(),
    /** Honest expected time until the money is on the account, in minutes (0: at once). */
    expectedMinutes: z.number().int(),
  }),
  withdraw: z.object({
    enabled: z.boolean(),
    min: z.string(),
    max: z.string(),
    feeBp: z.number().int(),
    feeFixed: z.string(),
    /** Expected minutes from approval to the money arriving. */
    expectedMinutes: z.number().int(),
  }),
  /** Confirmations a chain deposit waits for (chains only). */
  confirmations: z.number().int().nullable(),
});
export type TMethodInfo = z.infer<typeof ZMethodInfo>;

export const DEPOSIT_STATES = ['pending', 'confirming', 'completed', 'failed', 'expired'] as const;
export const ZDepositState = z.enum(DEPOSIT_STATES);

export const ZDeposit = z.object({
  id: z.string(),
  account_id: z.number().int(),
  method: ZFundingMethod,
  status: ZDepositState,
  /** Requested amount in the method currency. */
  amount: z.string(),
  /** Fee in the method currency, paid on top of the amount. */
  fee: z.string(),
  methodCurrency: z.string(),
  /** What reached the account, in the account currency (null until completed). */
  credited: z.string().nullable(),
  accountCurrency: z.string(),
  /** Account currency per 1 unit of the method currency, as quoted at creation (stored). */
  rate: z.string(),
  /** Card and e-wallet: the provider's hosted payment page to send the trader to. */
  redirectUrl: z.string().nullable(),
  /** Chains: the trader's deposit address; bank: null. */
  address: z.string().nullable(),
  /** Bank: the reference to write on the transfer; chains: the transaction hash once seen. */
  reference: z.string().nullable(),
  /** Bank: where to send the money. */
  bank: z.object({ name: z.string(), iban: z.string(), bic: z.string(), beneficiary: z.string() }).nullable(),
  confirmations: z.number().int().nullable(),
  confirmationsNeeded: z.number().int().nullable(),
  /** The provider's failure reason key (declined, expired, underpaid...), translated by the portal. */
  failure: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** When the money is expected on the account, while not final. */
  expectedAt: z.string().nullable(),
});
export type TDeposit = z.infer<typeof ZDeposit>;

/**
 * Spec 4: initiated, awaiting review, review passed and processing, review rejected, completed,
 * failed. A trader's cancel while awaiting review ends in `failed` with failure `cancelled`.
 */
export const WITHDRAWAL_STATES = [
  'initiated',
  'awaiting_review',
  'processing',
  'rejected',
  'completed',
  'failed',
] as const;
export const ZWithdrawalState = z.enum(WITHDRAWAL_STATES);

export const ZWithdrawalStep = z.object({ status: ZWithdrawalState, at: z.string() });

export const ZWithdrawal = z.object({
  id: z.string(),
  account_id: z.number().int(),
  method: ZFundingMethod,
  status: ZWithdrawalState,
  /** Taken from the account, in the account currency (held from the request). */
  amount: z.string(),
  fee: z.string(),
  accountCurrency: z.string(),
  /** What the trader receives, in the method currency, at the stored rate. */
  payout: z.string(),
  methodCurrency: z.string(),
  rate: z.string(),
  /** Where the money goes, masked (card •••• 4242, address 0x12…89ab, IBAN …1234). */
  destination: z.string(),
  /** True when the money goes back the way it came (return-to-source). */
  toSource: z.boolean(),
  rejectReason: z.string().nullable(),
  failure: z.string().nullable(),
  steps: z.array(ZWithdrawalStep),
  createdAt: z.string(),
  expectedAt: z.string().nullable(),
  cancellable: z.boolean(),
});
export type TWithdrawal = z.infer<typeof ZWithdrawal>;

/** Where a withdrawal goes: the card or wallet of an earlier deposit, a chain address or a bank account. */
export const ZDestination = z.union([
  z.object({ kind: z.literal('source'), depositId: z.string().min(1).max(64) }),
  z.object({
    kind: z.literal('address'),
    address: z
      .string()
      .trim()
      .regex(/^(T[1-9A-HJ-NP-Za-km-z]{33}|0x[0-9a-fA-F]{40})$/, 'addressFormat'),
  }),
  z.object({
    kind: z.literal('bank'),
    iban: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}\d{2}[A-Z0-9 ]{10,32}$/, 'ibanFormat'),
    beneficiary: z.string().trim().min(2, 'required').max(70),
  }),
]);

// ---------------------------------------------------------------------------------------------
// Sub-accounts, transfers, the financial record, coins

export const SUB_ACCOUNT_PURPOSES = ['copy', 'strategy'] as const;
export const ZSubAccount = z.object({
  account_id: z.number().int(),
  parent_account_id: z.number().int(),
  purpose: z.enum(SUB_ACCOUNT_PURPOSES),
  currency: z.string(),
  balance: z.string(),
  equity: z.string(),
  /** What can go back to the main account now (its free margin). */
  transferable: z.string(),
  createdAt: z.string(),
});

export const TRANSFER_TYPES = [
  'transfer_follow_out',
  'transfer_follow_in',
  'transfer_strategy_out',
  'transfer_strategy_in',
] as const;
export const ZTransferType = z.enum(TRANSFER_TYPES);

/** Every kind of money movement the financial record lists. */
export const MOVEMENT_KINDS = [
  'deposit',
  'withdrawal',
  ...TRANSFER_TYPES,
  'adjustment',
  'coin_exchange',
] as const;
export const ZMovementKind = z.enum(MOVEMENT_KINDS);

export const ZMovement = z.object({
  id: z.string(),
  kind: ZMovementKind,
  /** The deposit's or withdrawal's state; `completed` for transfers, adjustments and exchanges. */
  status: z.string(),
  account_id: z.number().int(),
  /** Signed, in the account currency: in positive, out negative. */
  amount: z.string(),
  fee: z.string(),
  currency: z.string(),
  method: ZFundingMethod.nullable(),
  /** The other account of a transfer. */
  counterparty: z.number().int().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TMovement = z.infer<typeof ZMovement>;

export const ZFinancialQuery = z.object({
  kinds: z.array(ZMovementKind).max(MOVEMENT_KINDS.length).optional(),
  status: z.string().max(20).optional(),
  account_id: ZAccountId.optional(),
  /** Inclusive days, in UTC. */
  from: ZDay.optional(),
  to: ZDay.optional(),
  page: ZPage,
  size: ZSize,
});

export const ZCoinEntry = z.object({
  id: z.string(),
  /** Positive when earned, negative when exchanged. */
  coins: z.number().int(),
  /** first_deposit, contest_entry, kyc_approved, exchange, staff. */
  reason: z.string(),
  createdAt: z.string(),
});

// ---------------------------------------------------------------------------------------------

export const fundingRoutes = {
  certinfo: define({
    name: 'certinfo',
    path: PATHS.certinfo,
    access: { kind: 'user' },
    mutates: false,
    summary: "The trader's KYC state at both levels, the latest rejection reason and the upload limits",
    input: empty,
    output: ZKycInfo,
  }),
  certification: define({
    name: 'certification',
    path: PATHS.certification,
    access: { kind: 'user' },
    mutates: true,
    summary: 'Submits identity details with document images and a selfie for review',
    input: ZCertificationInput,
    output: ZKycInfo,
  }),
  seniorauth: define({
    name: 'seniorauth',
    path: PATHS.seniorauth,
    access: { kind: 'user' },
    mutates: true,
    summary: 'Submits proof of address and a liveness video for the senior level',
    input: ZSeniorAuthInput,
    output: ZKycInfo,
  }),
  fundingmethods: define({
    name: 'fundingmethods',
    path: PATHS.fundingmethods,
    access: { kind: 'user' },
    mutates: false,
    summary:
      'Deposit and withdrawal methods with limits, fees and rates; KYC, funding password and lock state',
    input: empty,
    output: z.object({
      methods: z.array(ZMethodInfo),
      kyc: ZKycState,
      fundPasswordSet: z.boolean(),
      /** Withdrawals stay locked until then after a funding password change (spec 9). */
      withdrawLockedUntil: z.string().nullable(),
      /** Experience accounts: cap in cents (spec 9: 100 USDT = 10,000 cents). */
      experienceCap: z.string(),
      /** Rates: account currency USD per 1 unit of each method currency. */
      rates: z.record(z.string(), z.string()),
    }),
  }),
  depositcreate: define({
    name: 'depositcreate',
    path: PATHS.depositcreate,
    access: { kind: 'user' },
    mutates: true,
    summary:
      'Starts a deposit: a hosted payment page (card, e-wallet), a chain address (USDT) or a bank reference',
    input: z.object({
      account_id: ZAccountId,
      method: ZFundingMethod,
      /** In the method currency. */
      amount: ZMoney,
      idempotencyKey: ZKey,
      /** Where the hosted page sends the trader back (a path of this portal). */
      returnPath: z
        .string()
        // A path of this portal only: never `//host` (an open redirect through the hosted page).
        .regex(/^\/(?![/\\])[A-Za-z0-9/_?=&.-]{0,200}$/)
        .optional(),
    }),
    output: ZDeposit,
  }),
  depositdetail: define({
    name: 'depositdetail',
    path: PATHS.depositdetail,
    access: { kind: 'user' },
    mutates: false,
    summary: 'One deposit of the trader with its state',
    input: z.object({ id: z.string().min(1).max(64) }),
    output: ZDeposit,
  }),
  withdrawcreate: define({
    name: 'withdrawcreate',
    path: PATHS.withdrawcreate,
    access: { kind: 'user' },
    mutates: true,
    summary: 'Requests a withdrawal: the amount is held at once and waits for review',
    input: z.object({
      account_id: ZAccountId,
      method: ZFundingMethod,
      /** In the account currency. */
      amount: ZMoney,
      destination: ZDestination,
      fundPassword: z.string().min(1).max(64),
      idempotencyKey: ZKey,
    }),
    output: ZWithdrawal,
  }),
  withdrawcancel: define({
    name: 'withdrawcancel',
    path: PATHS.withdrawcancel,
    access: { kind: 'user' },
    mutates: true,
    summary: 'Cancels a withdrawal still awaiting review; the held amount is released',
    input: z.object({ id: z.string().min(1).max(64) }),
    output: ZWithdrawal,
  }),
  withdrawdetail: define({
    name: 'withdrawdetail',
    path: PATHS.withdrawdetail,
    access: { kind: 'user' },
    mutates: false,
    summary: 'One withdrawal of the trader with its state timeline',
    input: z.object({ id: z.string().min(1).max(64) }),
    output: ZWithdrawal,
  }),
  fundpassword: define({
    name: 'fundpassword',
    path: PATHS.fundpassword,
    access: { kind: 'user' },
    mutates: true,
    summary:
      'Sets the funding password, or changes it with the old one (withdrawals lock for the broker-set hours)',
    input: z.object({ oldPassword: z.string().max(64).optional(), newPassword: ZFundPassword }),
    output: z.object({ withdrawLockedUntil: z.string().nullable() }),
  }),
  subaccounts: define({
    name: 'subaccounts',
    path: PATHS.subaccounts,
    access: { kind: 'user' },
    mutates: false,
    summary: 'The copy and strategy sub-accounts of one main account',
    input: z.object({ account_id: ZAccountId }),
    output: z.object({ items: z.array(ZSubAccount) }),
  }),
  subaccountcreate: define({
    name: 'subaccountcreate',
    path: PATHS.subaccountcreate,
    access: { kind: 'user' },
    mutates: true,
    summary: 'Opens a copy or strategy sub-account under a main account (empty; fund it by a transfer)',
    input: z.object({
      account_id: ZAccountId,
      purpose: z.enum(SUB_ACCOUNT_PURPOSES),
      idempotencyKey: ZKey,
    }),
    output: ZSubAccount,
  }),
  transfer: define({
    name: 'transfer',
    path: PATHS.transfer,
    access: { kind: 'user' },
    mutates: true,
    summary:
      'Moves money between a main account and one of its sub-accounts, only from free margin, in one ledger transaction',
    input: z.object({
      type: ZTransferType,
      /** The main account. */
      account_id: ZAccountId,
      sub_account_id: ZAccountId,
      amount: ZMoney,
      idempotencyKey: ZKey,
    }),
    output: z.object({ txId: z.number().int(), balance: z.string(), subBalance: z.string() }),
  }),
  financial: define({
    name: 'financial',
    path: PATHS.financial,
    access: { kind: 'user' },
    mutates: false,
    summary: 'Every money movement of the trader, newest first, with filters and paging',
    input: ZFinancialQuery,
    output: z.object({
      items: z.array(ZMovement),
      total: z.number().int(),
      page: z.number().int(),
      size: z.number().int(),
    }),
  }),
  coins: define({
    name: 'coins',
    path: PATHS.coins,
    access: { kind: 'user' },
    mutates: false,
    summary: "The trader's coins (1 coin = 1 cent) and how they were earned and spent",
    input: z.object({ page: ZPage, size: ZSize }),
    output: z.object({
      balance: z.number().int(),
      /** Cents one exchange may move (spec 9: 10,000). */
      exchangeCap: z.number().int(),
      items: z.array(ZCoinEntry),
      total: z.number().int(),
    }),
  }),
  coinexchange: define({
    name: 'coinexchange',
    path: PATHS.coinexchange,
    access: { kind: 'user' },
    mutates: true,
    summary: 'Exchanges coins into an experience account (1 coin = 1 cent, at most 10,000 cents)',
    input: z.object({
      account_id: ZAccountId,
      coins: z.number().int().min(1).max(10_000),
      idempotencyKey: ZKey,
    }),
    output: z.object({ balance: z.number().int(), credited: z.string() }),
  }),
  cancellate: define({
    name: 'cancellate',
    path: PATHS.cancellate,
    access: { kind: 'user' },
    mutates: true,
    summary:
      'Cancels a trading account: closes its positions (reason 7) and orders; a real balance is paid out to the source',
    input: z.object({
      account_id: ZAccountId,
      fundPassword: z.string().max(64).optional(),
      idempotencyKey: ZKey,
    }),
    output: z.object({ closed: z.number().int(), withdrawal: ZWithdrawal.nullable() }),
  }),
} as const;
