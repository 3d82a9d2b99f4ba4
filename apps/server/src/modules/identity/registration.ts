import { maskEmail, maskPhone } from '@broker/domain/identity/credentials';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { type CountryCode, parsePhoneNumberWithError } from 'libphonenumber-js';
import type { TCallContext } from '../../http/context';
import { serverTranslator } from '../../i18n';
import { newId } from '../../ids';
import { recordAudit } from '../audit/audit';
import { assertWithinLimit } from '../backoffice/audit/packages';
import { SmsDeliveryError } from '../notify/sms';
import { setPasswordEndingSessions } from './account-security';
import { verifyChallenge } from './captcha';
import {
  CODE_RESEND_MS,
  CODE_TTL_MS,
  consumeCode,
  createCode,
  type TCodeChannel,
  type TCodePurpose,
} from './codes';
import { hashPassword, verifyPassword } from './passwords';

export type TTargetInput = { email: string } | { phone: { twoCharCode: string; number: string } };
export type TTarget = { kind: 'email'; value: string } | { kind: 'phone'; value: string };

/** A phone number in E.164 form, or "Phone format wrong" (-1005). */
export function e164(phone: { twoCharCode: string; number: string }): string {
  try {
    const parsed = parsePhoneNumberWithError(phone.number, phone.twoCharCode as CountryCode);
    if (parsed.isValid()) return parsed.number;
  } catch {
    // falls through to the stable error
  }
  throw new AppError(AppErrorCode.PHONE_FORMAT_WRONG);
}

export function resolveTarget(input: TTargetInput): TTarget {
  return 'email' in input
    ? { kind: 'email', value: input.email }
    : { kind: 'phone', value: e164(input.phone) };
}

async function findUserId(ctx: TCallContext, target: TTarget): Promise<string | null> {
  const row = await ctx.services.database.db
    .selectFrom('users')
    .select('id')
    .where('tenant_id', '=', ctx.tenant.id)
    .where(target.kind, '=', target.value)
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function isRegistered(ctx: TCallContext, input: TTargetInput): Promise<boolean> {
  return (await findUserId(ctx, resolveTarget(input))) !== null;
}

/** Checks the captcha, the target's state for the purpose, then creates and delivers a code. */
export async function sendCode(
  ctx: TCallContext,
  input: TTargetInput & {
    purpose: TCodePurpose;
    channel?: TCodeChannel | undefined;
    captcha: { id: string; nonce: string };
  },
) {
  const db = ctx.services.database.db;
  await verifyChallenge({ db, id: input.captcha.id, nonce: input.captcha.nonce });
  const target = resolveTarget(input);
  const channel: TCodeChannel =
    target.kind === 'email' ? 'email' : input.channel === 'whatsapp' ? 'whatsapp' : 'sms';
  if (target.kind === 'phone' && input.channel === 'email')
    throw new AppError(AppErrorCode.VALIDATION_FAILED);
  if (input.purpose === 'bind' && !ctx.userSession) throw new AppError(AppErrorCode.TOKEN_INVALID);
  const registered = (await findUserId(ctx, target)) !== null;
  if ((input.purpose === 'register' || input.purpose === 'bind') && registered) {
    throw new AppError(
      target.kind === 'email' ? AppErrorCode.EMAIL_ALREADY_REGISTERED : AppErrorCode.PHONE_ALREADY_REGISTERED,
    );
  }
  if ((input.purpose === 'reset' || input.purpose === 'login') && !registered)
    throw new AppError(AppErrorCode.USER_NOT_FOUND);
  const code = await createCode({
    db,
    tenantId: ctx.tenant.id,
    channel,
    target: target.value,
    purpose: input.purpose,
  });
  const t = serverTranslator(ctx.locale);
  const minutes = CODE_TTL_MS / 60_000;
  const body = t('mail.code.body', { code, minutes, brand: t('brand.name') });
  try {
    if (target.kind === 'email') {
      await ctx.services.mailer.send({
        to: target.value,
        subject: t('mail.code.subject', { code, brand: t('brand.name') }),
        text: body,
      });
    } else {
      await ctx.services.sms.send({ to: target.value, text: body, channel: channel as 'sms' | 'whatsapp' });
    }
  } catch (error) {
    ctx.request.log.warn({ err: error, channel }, 'verification code not delivered');
    if (error instanceof SmsDeliveryError || target.kind === 'phone')
      throw new AppError(AppErrorCode.MESSAGE_NOT_DELIVERED);
    throw new AppError(AppErrorCode.MESSAGE_NOT_DELIVERED);
  }
  return {
    sentTo: target.kind === 'email' ? maskEmail(target.value) : maskPhone(target.value),
    channel,
    resendAfterSeconds: CODE_RESEND_MS / 1000,
    expiresInSeconds: CODE_TTL_MS / 1000,
  };
}

/** Creates the trader after checking the code; returns the new user's id. */
export async function registerTrader(
  ctx: TCallContext,
  input: TTargetInput & { code: string; password: string; nick?: string | undefined },
): Promise<string> {
  const db = ctx.services.database.db;
  const target = resolveTarget(input);
  if ((await findUserId(ctx, target)) !== null) {
    throw new AppError(
      target.kind === 'email' ? AppErrorCode.EMAIL_ALREADY_REGISTERED : AppErrorCode.PHONE_ALREADY_REGISTERED,
    );
  }
  await assertWithinLimit(db, ctx.tenant.id, 'customers');
  await consumeCode({
    db,
    tenantId: ctx.tenant.id,
    target: target.value,
    purpose: 'register',
    code: input.code,
  });
  const id = newId();
  const name =
    input.nick ??
    (target.kind === 'email' ? (target.value.split('@')[0] as string) : maskPhone(target.value));
  try {
    await db
      .insertInto('users')
      .values({
        id,
        tenant_id: ctx.tenant.id,
        email: target.kind === 'email' ? target.value : null,
        phone: target.kind === 'phone' ? target.value : null,
        password_hash: await hashPassword(input.password),
        display_name: name,
        country_code: null,
        locked_until: null,
      })
      .execute();
  } catch (error) {
    // Two registrations racing for the same address: the unique index decides.
    if (/unique|duplicate/i.test(String(error))) throw new AppError(AppErrorCode.EMAIL_ALREADY_REGISTERED);
    throw error;
  }
  await recordAudit(db, {
    tenantId: ctx.tenant.id,
    actorKind: 'user',
    actorId: id,
    action: 'user.register',
    ip: ctx.ip,
    details: { by: target.kind },
  });
  return id;
}

/** Sets a new password after checking the code, and ends every session of the trader. */
export async function resetPassword(
  ctx: TCallContext,
  input: TTargetInput & { code: string; password: string },
): Promise<void> {
  const db = ctx.services.database.db;
  const target = resolveTarget(input);
  const userId = await findUserId(ctx, target);
  if (!userId) throw new AppError(AppErrorCode.USER_NOT_FOUND);
  // Only someone holding the code learns whether the new password equals the old one.
  await consumeCode({
    db,
    tenantId: ctx.tenant.id,
    target: target.value,
    purpose: 'reset',
    code: input.code,
    beforeConsume: async () => {
      const user = await db
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      if (await verifyPassword(user.password_hash, input.password))
        throw AppError.invalid({ password: 'passwordSameAsOld' });
    },
  });
  await setPasswordEndingSessions({ db, userId, password: input.password });
  await recordAudit(db, {
    tenantId: ctx.tenant.id,
    actorKind: 'user',
    actorId: userId,
    action: 'user.password.reset',
    ip: ctx.ip,
  });
}

/** Quick sign-in with a phone code; returns the user id. */
export async function phoneCodeLogin(
  ctx: TCallContext,
  input: { phone: { twoCharCode: string; number: string }; code: string },
): Promise<string> {
  const target = resolveTarget(input);
  const userId = await findUserId(ctx, target);
  if (!userId) throw new AppError(AppErrorCode.USER_NOT_FOUND);
  await consumeCode({
    db: ctx.services.database.db,
    tenantId: ctx.tenant.id,
    target: target.value,
    purpose: 'login',
    code: input.code,
  });
  return userId;
}
