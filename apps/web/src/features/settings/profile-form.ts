import type { TRouteInput, TSimpleUser } from '@broker/contracts/routes';

export const NICK_MAX = 24;
export const PROFILE_MAX = 200;
export const LINK_MAX = 64;
export const LINK_KEYS = ['wechat', 'qq', 'facebook', 'ins', 'twitter'] as const;
export type TLinkKey = (typeof LINK_KEYS)[number];
export type TSex = 0 | 1 | 2;

/** The editable part of the profile. The avatar is a file id once a new one is uploaded. */
export type TProfileValues = {
  nick: string;
  sex: TSex;
  profile: string;
  avatar: { fileId: string | null; url: string | null };
} & Record<TLinkKey, string>;

export type TProfileField = 'nick' | 'profile' | 'avatar' | TLinkKey;
export type TProfileErrors = Partial<Record<TProfileField | 'form', string>>;

/** The form's starting values: what the server has. `fileId` is unknown for a stored avatar. */
export function valuesOf(user: TSimpleUser): TProfileValues {
  return {
    nick: user.nick,
    sex: user.sex,
    profile: user.profile,
    avatar: { fileId: null, url: user.avatar },
    wechat: user.wechat,
    qq: user.qq,
    facebook: user.facebook,
    ins: user.ins,
    twitter: user.twitter,
  };
}

/** Only what changed, trimmed as the server stores it; an empty patch means nothing to save. */
export function profilePatch(saved: TProfileValues, current: TProfileValues): TRouteInput<'saveprofile'> {
  const patch: TRouteInput<'saveprofile'> = {};
  if (current.nick.trim() !== saved.nick) patch.nick = current.nick.trim();
  if (current.sex !== saved.sex) patch.sex = current.sex;
  if (current.profile.trim() !== saved.profile) patch.profile = current.profile.trim();
  if (current.avatar.url !== saved.avatar.url) patch.avatarFileId = current.avatar.fileId;
  for (const key of LINK_KEYS) if (current[key].trim() !== saved[key]) patch[key] = current[key].trim();
  return patch;
}

/** The spec's limits checked before sending, as translation keys per field (the server says the same). */
export function profileProblems(values: TProfileValues): Partial<Record<TProfileField, string>> {
  const problems: Partial<Record<TProfileField, string>> = {};
  const nick = values.nick.trim();
  if (!nick) problems.nick = 'validation.nickRequired';
  else if (nick.length > NICK_MAX) problems.nick = 'validation.nickTooLong';
  if (values.profile.trim().length > PROFILE_MAX) problems.profile = 'validation.profileTooLong';
  for (const key of LINK_KEYS) if (values[key].trim().length > LINK_MAX) problems[key] = 'validation.tooLong';
  return problems;
}

/** The server names a bad avatar file `attachments`; everything else by its own field. */
export function profileFieldOf(serverField: string): TProfileField | 'form' {
  if (serverField === 'attachments' || serverField === 'avatarFileId') return 'avatar';
  if (serverField === 'nick' || serverField === 'profile') return serverField;
  return (LINK_KEYS as readonly string[]).includes(serverField) ? (serverField as TLinkKey) : 'form';
}
