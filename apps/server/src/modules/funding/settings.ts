import type { TFundingSettings } from '@broker/contracts/admin/funding-routes';
import type { TFundingMethod } from '@broker/contracts/funding-routes';
import { FUNDING_METHODS } from '@broker/contracts/funding-routes';
import type { TDb } from '../../db/database';

/** Which built-in provider serves each method, its currency, and honest expected times. */
export const METHOD_FACTS: Record<
  TFundingMethod,
  {
    provider: string;
    currency: string;
    depositMinutes: number;
    withdrawMinutes: number;
    network: 'trc20' | 'erc20' | null;
  }
> = {
  card: {
    provider: 'sandboxcard',
    currency: 'USD',
    depositMinutes: 0,
    withdrawMinutes: 3 * 24 * 60,
    network: null,
  },
  ewallet: {
    provider: 'sandboxwallet',
    currency: 'USD',
    depositMinutes: 0,
    withdrawMinutes: 60,
    network: null,
  },
  usdt_trc20: {
    provider: 'sandboxchain',
    currency: 'USDT',
    depositMinutes: 5,
    withdrawMinutes: 30,
    network: 'trc20',
  },
  usdt_erc20: {
    provider: 'sandboxchain',
    currency: 'USDT',
    depositMinutes: 10,
    withdrawMinutes: 30,
    network: 'erc20',
  },
  bank: {
    provider: 'sandboxbank',
    currency: 'USD',
    depositMinutes: 24 * 60,
    withdrawMinutes: 2 * 24 * 60,
    network: null,
  },
};

/** A withdrawal waits this long for review at most (the broker's service level shown to traders). */
export const REVIEW_MINUTES = 24 * 60;

const method = (m: TFundingMethod, over: Partial<TFundingSettings['methods'][number]> = {}) => ({
  method: m,
  depositEnabled: true,
  depositMin: '10.00',
  depositMax: '50000.00',
  depositFeeBp: 0,
  depositFeeFixed: '0.00',
  withdrawEnabled: true,
  withdrawMin: '10.00',
  withdrawMax: '50000.00',
  withdrawFeeBp: 0,
  withdrawFeeFixed: '0.00',
  ...over,
});

/** What a broker starts with: every method on, card fees like a typical acquirer's. */
export const DEFAULT_FUNDING_SETTINGS: TFundingSettings = {
  methods: FUNDING_METHODS.map((m) =>
    m === 'card'
      ? method(m, { depositFeeBp: 250, depositFeeFixed: '0.30', withdrawFeeFixed: '0.00' })
      : m === 'ewallet'
        ? method(m, { depositFeeBp: 150 })
        : m === 'bank'
          ? method(m, { depositMin: '50.00', withdrawMin: '50.00', withdrawFeeFixed: '5.00' })
          : method(m, { withdrawFeeFixed: m === 'usdt_erc20' ? '5.00' : '1.00' }),
  ),
  fourEyesUsd: '10000.00',
  fundPasswordLockHours: 24,
  coinRules: { first_deposit: 500, kyc_approved: 200, contest_entry: 100 },
};

/** The broker's funding settings, or the defaults; methods missing from a saved set take theirs. */
export async function fundingSettings(db: TDb, tenantId: string): Promise<TFundingSettings> {
  const row = await db
    .selectFrom('funding_settings')
    .select('settings')
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (!row) return DEFAULT_FUNDING_SETTINGS;
  const saved = (
    typeof row.settings === 'string' ? JSON.parse(row.settings) : row.settings
  ) as TFundingSettings;
  return {
    ...DEFAULT_FUNDING_SETTINGS,
    ...saved,
    methods: FUNDING_METHODS.map(
      (m) =>
        saved.methods.find((s) => s.method === m) ??
        (DEFAULT_FUNDING_SETTINGS.methods.find((s) => s.method === m) as TFundingSettings['methods'][number]),
    ),
    coinRules: { ...DEFAULT_FUNDING_SETTINGS.coinRules, ...saved.coinRules },
  };
}

export function methodSettings(settings: TFundingSettings, m: TFundingMethod) {
  return settings.methods.find((s) => s.method === m) as TFundingSettings['methods'][number];
}
