import { clearSessionCookies } from '../http/cookies';
import type { THandlers } from '../http/gateway';
import {
  beginTotp,
  bindContact,
  changePassword,
  disableTotp,
  enableTotp,
  listIdentities,
  listSessions,
  loadSettings,
  reportClientLogin,
  revokeSessions,
  saveProfile,
  saveSettings,
  secureCookies,
  simpleUser,
  tradeToken,
  unbindIdentity,
  userInfo,
} from '../modules/identity';
import { userActorOf } from './actors';
import { codePorts, identityPorts } from './identity';

/**
 * Handlers of the signed-in trader's own account: profile, contacts, settings, sessions, password,
 * two-factor sign-in, third-party identities and the trade token. Each one the trader's session as
 * the actor of an identity use case.
 */
export const accountHandlers = {
  profile: async (_input, ctx) => simpleUser(identityPorts(ctx), { actor: userActorOf(ctx) }),
  saveprofile: async (input, ctx) => saveProfile(identityPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  bindcontact: async (input, ctx) => bindContact(codePorts(ctx), { ...input, actor: userActorOf(ctx) }),
  userlogin: async (input, ctx) =>
    reportClientLogin(identityPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  userinfo: async (_input, ctx) => userInfo(identityPorts(ctx), { actor: userActorOf(ctx) }),
  identities: async (_input, ctx) => listIdentities(identityPorts(ctx), { actor: userActorOf(ctx) }),
  unbindidentity: async (input, ctx) =>
    unbindIdentity(identityPorts(ctx), { slug: input.slug, actor: userActorOf(ctx) }),
  totpsetup: async (_input, ctx) =>
    beginTotp(identityPorts(ctx), { actor: userActorOf(ctx), issuer: ctx.tenant.name }),
  totpenable: async (input, ctx) => {
    await enableTotp(identityPorts(ctx), { code: input.code, actor: userActorOf(ctx) });
    return { ok: true as const };
  },
  totpdisable: async (input, ctx) => {
    await disableTotp(identityPorts(ctx), { code: input.code, actor: userActorOf(ctx) });
    return { ok: true as const };
  },
  sessionlist: async (_input, ctx) => listSessions(identityPorts(ctx), { actor: userActorOf(ctx) }),
  sessionrevoke: async (input, ctx) => ({
    revoked: await revokeSessions(identityPorts(ctx), {
      actor: userActorOf(ctx),
      id: 'id' in input ? input.id : null,
    }),
  }),
  changepassword: async (input, ctx) => {
    await changePassword(identityPorts(ctx), {
      actor: userActorOf(ctx),
      oldPassword: input.oldPassword,
      password: input.password,
    });
    clearSessionCookies(ctx.reply, 'user');
    return { ok: true as const };
  },
  settings: async (_input, ctx) => loadSettings(identityPorts(ctx), { actor: userActorOf(ctx) }),
  savesettings: async (input, ctx) => {
    const settings = await saveSettings(identityPorts(ctx), { ...input, actor: userActorOf(ctx) });
    // The server renderer and every page read these two, so a change shows at once everywhere.
    const cookie = {
      path: '/',
      sameSite: 'lax' as const,
      maxAge: 365 * 24 * 3600,
      secure: secureCookies(ctx),
    };
    ctx.reply.setCookie('theme', settings.theme, cookie);
    ctx.reply.setCookie('klineColor', String(settings.klineColor), cookie);
    return settings;
  },
  tradetoken: async (input, ctx) =>
    tradeToken(
      { secret: ctx.services.appSecret },
      { actor: userActorOf(ctx), cipherText: input.cipher_text, iv: input.iv_key },
    ),
} satisfies Partial<THandlers>;
