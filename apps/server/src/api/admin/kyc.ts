import type { TCallContext } from '../../http/context';
import type { THandlers } from '../../http/gateway';
import { fundingSettings, grantCoins } from '../../modules/funding';
import {
  approveKyc,
  kycDetail,
  kycQueue,
  rejectKyc,
  type TKycPorts,
  type TKycReviewPorts,
} from '../../modules/kyc';
import { staffActorOf } from '../actors';

const kycPorts = (ctx: TCallContext): TKycPorts => ({ db: ctx.services.database.db });

/**
 * A decision's ports: the mailer and the request's log. `onApproved` is where the funding module
 * grants its coins for an approval; the composition passes it in (kyc does not import funding).
 */
export const kycReviewPorts = (
  ctx: TCallContext,
  onApproved?: TKycReviewPorts['onApproved'],
): TKycReviewPorts => ({
  db: ctx.services.database.db,
  mailer: ctx.services.mailer,
  log: ctx.request.log,
  ...(onApproved ? { onApproved } : {}),
});

/** The broker's coins for an approved verification (granted once per trader). */
const grantKycCoins =
  (ctx: TCallContext): TKycReviewPorts['onApproved'] =>
  async (userId) => {
    const db = ctx.services.database.db;
    const { coinRules } = await fundingSettings(db, ctx.tenant.id);
    await grantCoins(db, {
      tenantId: ctx.tenant.id,
      userId,
      coins: coinRules.kyc_approved,
      reason: 'kyc_approved',
      ref: 'basic',
    });
  };

/** Handlers of the back office's KYC review (spec 2.4 "KYC review"). */
export const kycAdminHandlers: Pick<
  THandlers,
  'adminkycqueue' | 'adminkycdetail' | 'adminkycapprove' | 'adminkycreject'
> = {
  adminkycqueue: (input, ctx) => kycQueue(kycPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  adminkycdetail: (input, ctx) => kycDetail(kycPorts(ctx), { id: input.id, actor: staffActorOf(ctx) }),
  adminkycapprove: (input, ctx) =>
    approveKyc(kycReviewPorts(ctx, grantKycCoins(ctx)), { id: input.id, actor: staffActorOf(ctx) }),
  adminkycreject: (input, ctx) =>
    rejectKyc(kycReviewPorts(ctx), { id: input.id, reason: input.reason, actor: staffActorOf(ctx) }),
};
