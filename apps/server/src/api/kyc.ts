import type { TCallContext } from '../http/context';
import type { THandlers } from '../http/gateway';
import { kycInfo, submitCertification, submitSeniorAuth, type TKycPorts } from '../modules/kyc';
import { userActorOf } from './actors';

export const kycPorts = (ctx: TCallContext): TKycPorts => ({ db: ctx.services.database.db });

/**
 * Handlers of the trader's KYC (spec 7.6 certification info, certification, senior auth); the
 * files are uploaded first (`golbal/upload`, purpose `kyc`) and named by their ids.
 */
export const kycHandlers: Pick<THandlers, 'certinfo' | 'certification' | 'seniorauth'> = {
  certinfo: (_input, ctx) => kycInfo(kycPorts(ctx), { actor: userActorOf(ctx) }),
  certification: (input, ctx) =>
    submitCertification(kycPorts(ctx), { ...input, locale: ctx.locale, actor: userActorOf(ctx) }),
  seniorauth: (input, ctx) =>
    submitSeniorAuth(kycPorts(ctx), { ...input, locale: ctx.locale, actor: userActorOf(ctx) }),
};
