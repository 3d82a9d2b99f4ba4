import { maskEmail, maskPhone } from '@broker/domain/identity/credentials';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { type CountryCode, parsePhoneNumberWithError } from 'libphonenumber-js';
import { serverTranslator } from '../../i18n';
import { newId } from '../../ids';
import { recordAudit } from '../audit';
import { assertWithinLimit } from '../entitlements';
import { SmsDeliveryError } from '../notify';
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
import { countUsers } from './directory';
import { hashPassword, verifyPassword } from './passwords';
import type { TCodePorts, TIdentityPorts, TMessagePorts } from './ports';

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

async function findUserId(ports: TIdentityPorts, tenantId: string, target: TTarget): Promise<string | null> {
  const row = await ports.db
    .selectFrom('users')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where(target.kind, '=', target.value)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** Whether an email or phone number belongs to a trader of the broker (an anonymous question). */
export async function isRegistered(
  ports: TIdentityPorts,
  { tenantId, ...input }: TTargetInput & { tenantId: string },
): Promise<boolean> {
  return (await findUserId(ports, tenantId, resolveTarget(input))) !== null;
}

/**
 * Checks the captcha, the target's state for the purpose, then creates and delivers a code, written
 * in the caller's language. An anonymous call; only a signed-in trader may ask for a binding code.
 */
export async function sendCode(
  ports: TMessagePorts,
  {
    tenantId,
    locale,
    signedIn,
    ...input
  }: TTargetInput & {
    tenantId: string;
    locale: string;
    /** Whether the call carries a trader's session. */
    signedIn: boolean;
    purpose: TCodePurpose;
    channel?: TCodeChannel | undefined;
    captcha: { id: string; nonce: string };
  },
) {
  const { db } = ports;
  await verifyChallenge({ db, id: input.captcha.id, nonce: input.captcha.nonce });
  const target = resolveTarget(input);
  const channel: TCodeChannel =
    target.kind === 'email' ? 'email' : input.channel === 'whatsapp' ? 'whatsapp' : 'sms';
  if (target.kind === 'phone' && input.channel === 'email')
    throw new AppError(AppErrorCode.VALIDATION_FAILED);
  if (input.purpose === 'bind' && !signedIn) throw new AppError(AppErrorCode.TOKEN_INVALID);
  const registered = (await findUserId(ports, tenantId, target)) !== null;
  if ((input.purpose === 'register' || input.purpose === 'bind') && registered) {
    throw new AppError(
      target.kind === 'email' ? AppErrorCode.EMAIL_ALREADY_REGISTERED : AppErrorCode.PHONE_ALREADY_REGISTERED,
    );
  }
  if ((input.purpose === 'reset' || input.purpose === 'login') && !registered)
    throw new AppError(AppErrorCode.USER_NOT_FOUND);
  const code = await createCode({
    db,
    tenantId,
    channel,
    target: target.value,
    purpose: input.purpose,
  });
  const t = serverTranslator(locale);
  const minutes = CODE_TTL_MS / 60_000;
  const body = t('mail.code.body', { code, minutes, brand: t('brand.name') });
  try {
    if (target.kind === 'email') {
      await ports.mailer.send({
        to: target.value,
        subject: t('mail.code.subject', { code, brand: t('brand.name') }),
        text: body,
      });
    } else {
      await ports.sms.send({ to: target.value, text: body, channel: channel as 'sms' | 'whatsapp' });
    }
  } catch (error) {
    ports.log.warn({ err: error, channel }, 'verification code not delivered');
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
  ports: TCodePorts,
  {
    tenantId,
    ip,
    ...input
  }: TTargetInput & {
    tenantId: string;
    ip: string | null;
    code: string;
    password: string;
    nick?: string | undefined;
  },
): Promise<string> {
  const { db } = ports;
  const target = resolveTarget(input);
  if ((await findUserId(ports, tenantId, target)) !== null) {
    throw new AppError(
      target.kind === 'email' ? AppErrorCode.EMAIL_ALREADY_REGISTERED : AppErrorCode.PHONE_ALREADY_REGISTERED,
    );
  }
  await assertWithinLimit(db, tenantId, 'customers', countUsers);
  await consumeCode({
    db,
    limiter: ports.limiter,
    tenantId,
    target: target.value,
    purpose: 'register',
    code: input.code,
  });
  const id = newId();
  const name =
    input.nick ??
    (target.kind === 'email' ? (target.value.split('@')[0] as string) : maskPhone(target.value));
  const passwordHash = await hashPassword(input.password);
  try {
    // The package's customer limit is checked again where the row is added, under the broker's
    // limit lock (the check above only spares a code when the broker is already full).
    await db.transaction().execute(async (trx) => {
      await assertWithinLimit(trx, tenantId, 'customers', countUsers);
      await trx
        .insertInto('users')
        .values({
          id,
          tenant_id: tenantId,
          email: target.kind === 'email' ? target.value : null,
          phone: target.kind === 'phone' ? target.value : null,
          password_hash: passwordHash,
          display_name: name,
          country_code: null,
          locked_until: null,
        })
        .execute();
    });
  } catch (error) {
    // Two registrations racing for the same address: the unique index decides.
    if (/unique|duplicate/i.test(String(error))) throw new AppError(AppErrorCode.EMAIL_ALREADY_REGISTERED);
    throw error;
  }
  await recordAudit(db, {
    tenantId,
    actorKind: 'user',
    actorId: id,
    action: 'user.register',
    ip,
    details: { by: target.kind },
  });
  return id;
}

/** Sets a new password after checking the code, and ends every session of the trader. */
export async function resetPassword(
  ports: TCodePorts,
  {
    tenantId,
    ip,
    ...input
  }: TTargetInput & { tenantId: string; ip: string | null; code: string; password: string },
): Promise<void> {
  const { db } = ports;
  const target = resolveTarget(input);
  const userId = await findUserId(ports, tenantId, target);
  if (!userId) throw new AppError(AppErrorCode.USER_NOT_FOUND);
  // Only someone holding the code learns whether the new password equals the old one.
  await consumeCode({
    db,
    limiter: ports.limiter,
    tenantId,
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
    tenantId,
    actorKind: 'user',
    actorId: userId,
    action: 'user.password.reset',
    ip,
  });
}

/** Quick sign-in with a phone code; returns the user id. */
export async function phoneCodeLogin(
  ports: TCodePorts,
  { tenantId, ...input }: { tenantId: string; phone: { twoCharCode: string; number: string }; code: string },
): Promise<string> {
  const target = resolveTarget(input);
  const userId = await findUserId(ports, tenantId, target);
  if (!userId) throw new AppError(AppErrorCode.USER_NOT_FOUND);
  await consumeCode({
    db: ports.db,
    limiter: ports.limiter,
    tenantId,
    target: target.value,
    purpose: 'login',
    code: input.code,
  });
  return userId;
}
