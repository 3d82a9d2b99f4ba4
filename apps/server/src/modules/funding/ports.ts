import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { AccountType } from '@broker/domain/trading/calculations';
import type { TAccountView } from '@broker/domain/trading/engine-core';
import type { TActor } from '../../actor';
import { findUser } from '../identity';
import { mainAccount, type TTradingPorts } from '../trading';
import type { TPaymentProvider } from './providers/types';

/** What the funding use cases work with: the engine and database, and the payment providers. */
export interface TFundingPorts extends TTradingPorts {
  providers: ReadonlyMap<string, TPaymentProvider>;
  /** The portal's own absolute base URL (hosted pages send traders back to it). */
  publicUrl: () => string;
  log?: { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
}

export function providerOf(ports: TFundingPorts, id: string): TPaymentProvider {
  const provider = ports.providers.get(id);
  if (!provider) throw new AppError(AppErrorCode.METHOD_UNAVAILABLE);
  return provider;
}

/** Spec 6: a user without KYC cannot deposit or withdraw. */
export async function requireKyc(ports: TFundingPorts, actor: TActor, userId: string): Promise<void> {
  const user = await findUser(ports.db, { tenantId: actor.tenantId, id: userId });
  if (user.kyc_status !== 'approved') throw new AppError(AppErrorCode.KYC_REQUIRED);
}

/** A main real or experience account of the trader: demo accounts and sub-accounts take no money. */
export function fundableAccount(ports: TFundingPorts, actor: TActor, accountId: number): TAccountView {
  const view = mainAccount(ports, actor, accountId);
  if (view.accountType !== AccountType.REAL && view.accountType !== AccountType.EXPERIENCE)
    throw new AppError(AppErrorCode.FUNDING_NOT_ALLOWED);
  return view;
}
