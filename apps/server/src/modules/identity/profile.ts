import type { TSimpleUser } from '@broker/contracts/routes';
import { maskEmail, maskPhone } from '@broker/domain/identity/credentials';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { countryEntries } from '@broker/i18n/countries';
import { parsePhoneNumberWithError } from 'libphonenumber-js';
import type { TActor } from '../../actor';
import { recordAudit } from '../audit';
import { fileUrl, ownedFiles } from '../files';
import { consumeCode } from './codes';
import type { TCodePorts, TIdentityPorts } from './ports';
import { resolveTarget, type TTargetInput } from './registration';

const CONTACT_KEYS = ['wechat', 'qq', 'facebook', 'ins', 'twitter'] as const;
type TContacts = Partial<Record<(typeof CONTACT_KEYS)[number], string>>;

let countryByRegion: Map<string, { code: string; flag: string }> | null = null;
/** The calling code (00 style) and flag of a phone number's region. */
function areaOf(phone: string | null): { areaCode: string | null; areaFlag: string | null } {
  if (!phone) return { areaCode: null, areaFlag: null };
  countryByRegion ??= new Map(countryEntries().map((c) => [c.twoCharCode, { code: c.code, flag: c.flag }]));
  try {
    const region = parsePhoneNumberWithError(phone).country;
    const entry = region ? countryByRegion.get(region) : undefined;
    if (entry) return { areaCode: entry.code, areaFlag: entry.flag };
  } catch {
    // an unparsable stored number shows without its area
  }
  return { areaCode: null, areaFlag: null };
}

const parseJson = (value: unknown): Record<string, unknown> =>
  (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>;

/** The spec 3 Simple user of the signed-in trader, with masked email and phone. */
export async function simpleUser(ports: TIdentityPorts, { actor }: { actor: TActor }): Promise<TSimpleUser> {
  const user = await ports.db
    .selectFrom('users')
    .select(['id', 'email', 'phone', 'display_name', 'nick', 'avatar_file_id', 'sex', 'profile', 'contacts'])
    .where('id', '=', actor.id)
    .where('tenant_id', '=', actor.tenantId)
    .executeTakeFirst();
  if (!user) throw new AppError(AppErrorCode.TOKEN_INVALID);
  const contacts = parseJson(user.contacts) as TContacts;
  return {
    userId: user.id,
    nick: user.nick ?? user.display_name,
    avatar: user.avatar_file_id ? fileUrl(user.avatar_file_id, 'avatar') : null,
    sex: (user.sex === 1 || user.sex === 2 ? user.sex : 0) as 0 | 1 | 2,
    profile: user.profile,
    email: user.email ? maskEmail(user.email) : null,
    phone: user.phone ? maskPhone(user.phone) : null,
    ...areaOf(user.phone),
    isCert: false,
    isAuthentication: false,
    userIdentity: 0,
    wechat: contacts.wechat ?? '',
    qq: contacts.qq ?? '',
    facebook: contacts.facebook ?? '',
    ins: contacts.ins ?? '',
    twitter: contacts.twitter ?? '',
    noticeCount: 0,
    releaseCount: 0,
    followedCount: 0,
    fansCount: 0,
    orderCount: 0,
    epcCount: 0,
    visitCount: 0,
    visitsPhoto: [],
  };
}

/** Changes the trader's own profile (nickname, avatar, sex, introduction, contacts). */
export async function saveProfile(
  ports: TIdentityPorts,
  {
    actor,
    ...input
  }: {
    actor: TActor;
    nick?: string | undefined;
    avatarFileId?: string | null | undefined;
    sex?: 0 | 1 | 2 | undefined;
    profile?: string | undefined;
  } & TContacts,
): Promise<TSimpleUser> {
  const { db } = ports;
  const userId = actor.id;
  if (input.avatarFileId)
    await ownedFiles(db, {
      tenantId: actor.tenantId,
      userId,
      ids: [input.avatarFileId],
      purpose: 'avatar',
    });
  const current = await db
    .selectFrom('users')
    .select(['contacts'])
    .where('id', '=', userId)
    .where('tenant_id', '=', actor.tenantId)
    .executeTakeFirstOrThrow();
  const contacts: TContacts = { ...(parseJson(current.contacts) as TContacts) };
  let contactsChanged = false;
  for (const key of CONTACT_KEYS) {
    const value = input[key];
    if (value !== undefined) {
      contacts[key] = value;
      contactsChanged = true;
    }
  }
  await db
    .updateTable('users')
    .set({
      ...(input.nick !== undefined ? { nick: input.nick, display_name: input.nick } : {}),
      ...(input.avatarFileId !== undefined ? { avatar_file_id: input.avatarFileId } : {}),
      ...(input.sex !== undefined ? { sex: input.sex } : {}),
      ...(input.profile !== undefined ? { profile: input.profile } : {}),
      ...(contactsChanged ? { contacts: JSON.stringify(contacts) } : {}),
    })
    .where('id', '=', userId)
    .where('tenant_id', '=', actor.tenantId)
    .execute();
  await recordAudit(db, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action: 'user.profile.update',
    ip: actor.ip,
    details: {
      fields: Object.keys(input).filter((k) => (input as Record<string, unknown>)[k] !== undefined),
    },
  });
  return simpleUser(ports, { actor });
}

/** Binds a new email or phone (or replaces the current one) after checking the code sent to it. */
export async function bindContact(
  ports: TCodePorts,
  { actor, ...input }: TTargetInput & { actor: TActor; code: string },
): Promise<TSimpleUser> {
  const { db } = ports;
  const userId = actor.id;
  const target = resolveTarget(input);
  const taken = await db
    .selectFrom('users')
    .select('id')
    .where('tenant_id', '=', actor.tenantId)
    .where(target.kind, '=', target.value)
    .executeTakeFirst();
  if (taken) {
    if (taken.id === userId) return simpleUser(ports, { actor });
    throw new AppError(
      target.kind === 'email' ? AppErrorCode.EMAIL_ALREADY_REGISTERED : AppErrorCode.PHONE_ALREADY_REGISTERED,
    );
  }
  await consumeCode({
    db,
    limiter: ports.limiter,
    tenantId: actor.tenantId,
    target: target.value,
    purpose: 'bind',
    code: input.code,
  });
  const before = await db
    .selectFrom('users')
    .select(['email', 'phone'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  await db
    .updateTable('users')
    .set(target.kind === 'email' ? { email: target.value } : { phone: target.value })
    .where('id', '=', userId)
    .where('tenant_id', '=', actor.tenantId)
    .execute();
  const previous = target.kind === 'email' ? before.email : before.phone;
  await recordAudit(db, {
    tenantId: actor.tenantId,
    actorKind: actor.kind,
    actorId: actor.id,
    action: `user.${target.kind}.${previous ? 'change' : 'bind'}`,
    ip: actor.ip,
    details: {
      from: previous ? (target.kind === 'email' ? maskEmail(previous) : maskPhone(previous)) : null,
      to: target.kind === 'email' ? maskEmail(target.value) : maskPhone(target.value),
    },
  });
  return simpleUser(ports, { actor });
}
