import type { fundingRoutes } from '@broker/contracts/funding-routes';
import type { TCallContext } from '../http/context';
import type { THandlers } from '../http/gateway';
import {
  cancelAccount,
  cancelWithdrawal,
  coinHistory,
  createDeposit,
  createSubAccount,
  depositDetail,
  exchangeCoins,
  financialRecord,
  fundingMethods,
  listSubAccounts,
  requestWithdrawal,
  setFundPassword,
  type TFundingPorts,
  transferFunds,
  withdrawalDetail,
} from '../modules/funding';
import { tradingPorts, userActorOf } from './actors';

/** The funding use cases' ports: trading's, and the payment providers of the composed services. */
export const fundingPorts = (ctx: TCallContext): TFundingPorts => ({
  ...tradingPorts(ctx),
  ...ctx.services.funding,
  log: ctx.request.log,
});

/** The browser's fingerprint from the BasicData header (spec 7), for the reviewer's device flag. */
export function deviceOf(ctx: TCallContext): string | null {
  const raw = ctx.request.headers.basicdata;
  if (typeof raw !== 'string' || raw.length > 512) return null;
  try {
    const fingerprint = (JSON.parse(raw) as { fingerprint?: unknown }).fingerprint;
    return typeof fingerprint === 'string' && fingerprint.length <= 128 ? fingerprint : null;
  } catch {
    return null;
  }
}

type TFundingHandlers = Pick<
  THandlers,
  Exclude<keyof typeof fundingRoutes, 'certinfo' | 'certification' | 'seniorauth'>
>;

/** Handlers of the trader's funding routes (the `trans` family and `cancellate`). */
export const fundingHandlers: TFundingHandlers = {
  fundingmethods: (_input, ctx) => fundingMethods(fundingPorts(ctx), { actor: userActorOf(ctx) }),
  depositcreate: (input, ctx) => createDeposit(fundingPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  depositdetail: (input, ctx) => depositDetail(fundingPorts(ctx), { id: input.id, actor: userActorOf(ctx) }),
  withdrawcreate: (input, ctx) =>
    requestWithdrawal(fundingPorts(ctx), { ...input, actor: userActorOf(ctx), device: deviceOf(ctx) }),
  withdrawcancel: (input, ctx) =>
    cancelWithdrawal(fundingPorts(ctx), { id: input.id, actor: userActorOf(ctx) }),
  withdrawdetail: (input, ctx) =>
    withdrawalDetail(fundingPorts(ctx), { id: input.id, actor: userActorOf(ctx) }),
  fundpassword: (input, ctx) =>
    setFundPassword(ctx.services.database.db, {
      actor: userActorOf(ctx),
      oldPassword: input.oldPassword,
      newPassword: input.newPassword,
    }),
  subaccounts: async (input, ctx) =>
    listSubAccounts(fundingPorts(ctx), { actor: userActorOf(ctx), accountId: input.account_id }),
  subaccountcreate: (input, ctx) =>
    createSubAccount(fundingPorts(ctx), {
      actor: userActorOf(ctx),
      accountId: input.account_id,
      purpose: input.purpose,
      idempotencyKey: input.idempotencyKey,
    }),
  transfer: (input, ctx) => transferFunds(fundingPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  financial: (input, ctx) => financialRecord(ctx.services.database.db, { ...input, actor: userActorOf(ctx) }),
  coins: (input, ctx) => coinHistory(fundingPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  coinexchange: (input, ctx) => exchangeCoins(fundingPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  cancellate: (input, ctx) =>
    cancelAccount(fundingPorts(ctx), {
      actor: userActorOf(ctx),
      accountId: input.account_id,
      fundPassword: input.fundPassword,
      idempotencyKey: input.idempotencyKey,
      device: deviceOf(ctx),
    }),
};
