import { AppError, AppErrorCode } from '@broker/domain/result-codes';
import { groupedCountries } from '@broker/i18n/countries';
import { isLocaleCode, LOCALES } from '@broker/i18n/locales';
import countries from 'i18n-iso-countries';
import { sql } from 'kysely';
import { COOKIE, type TCallContext } from '../http/context';
import { clearSessionCookies, setSessionCookies } from '../http/cookies';
import type { THandlers } from '../http/gateway';
import { recordAudit } from './audit/audit';
import { accessHandlers } from './backoffice/access/handlers';
import { signInStaff, staffSession } from './backoffice/access/security';
import { auditHandlers } from './backoffice/audit/handlers';
import { customersHandlers } from './backoffice/customers/handlers';
import { marketHandlers } from './backoffice/market/handlers';
import { riskHandlers } from './backoffice/risk/handlers';
import { submitFeedback } from './feedback/feedback';
import {
  changePassword,
  listSessions,
  loadSettings,
  revokeSessions,
  saveSettings,
} from './identity/account-security';
import { issueChallenge } from './identity/captcha';
import { parkHandoff, takeHandoff } from './identity/handoff';
import { listIdentities, listProviders, startUnion, unbindIdentity } from './identity/oidc';
import { openUserSession, secureCookies } from './identity/open-session';
import { bindContact, saveProfile, simpleUser } from './identity/profile';
import {
  e164,
  isRegistered,
  phoneCodeLogin,
  registerTrader,
  resetPassword,
  sendCode,
} from './identity/registration';
import { revokeSession } from './identity/sessions';
import { signIn } from './identity/sign-in';
import { beginTotp, disableTotp, enableTotp } from './identity/totp';
import { issueTradeToken, openTradeRequest } from './identity/trade-token';
import { userProfile } from './identity/users';
import { quoteHandlers } from './market/quote-handlers';
import { deletePushSubscription, insertPushSubscription, listPushSubscriptions } from './notify/push';
import { legalDocument } from './pages/legal';

const LOGIN_LIMIT_PER_MINUTE = 20;

/**
 * Counts one call of `name` for the caller's broker and address and refuses it (-9003) past
 * `limit` calls per `windowMs`; with Redis the count is shared by every instance.
 */
async function enforceLimit(ctx: TCallContext, name: string, limit: number, windowMs: number) {
  const allowed = await ctx.services.rateLimiter.hit(`${name}:${ctx.tenant.id}:${ctx.ip}`, limit, windowMs);
  if (!allowed) throw new AppError(AppErrorCode.RATE_LIMITED);
}

const throttleLogin = (ctx: TCallContext, scope: string) =>
  enforceLimit(ctx, `login:${scope}`, LOGIN_LIMIT_PER_MINUTE, 60_000);

/** Ends the session of the cookie that came with the call, if it is live, and clears its cookies. */
async function signOut(ctx: TCallContext, kind: 'user' | 'staff'): Promise<{ ok: true }> {
  const token = ctx.request.cookies[kind === 'user' ? COOKIE.userToken : COOKIE.staffToken];
  const session = kind === 'user' ? ctx.userSession : ctx.staffSession;
  if (token && session) {
    await revokeSession({ db: ctx.services.database.db, token });
    await recordAudit(ctx.services.database.db, {
      tenantId: ctx.tenant.id,
      actorKind: kind,
      actorId: session.subjectId,
      action: `${kind === 'user' ? 'user' : 'staff'}.signout`,
      ip: ctx.ip,
    });
  }
  clearSessionCookies(ctx.reply, kind);
  return { ok: true };
}

/** The signed-in trader's id (the gateway has already refused calls without a session). */
const userIdOf = (ctx: TCallContext): string => {
  if (!ctx.userSession) throw new AppError(AppErrorCode.TOKEN_INVALID);
  return ctx.userSession.subjectId;
};

export const handlers: THandlers = {
  ...quoteHandlers,
  ...accessHandlers,
  ...auditHandlers,
  ...customersHandlers,
  ...marketHandlers,
  ...riskHandlers,
  accountcategory: async (_input, ctx) => ctx.services.trading.categories(ctx),
  accountlist: async (_input, ctx) => ctx.services.trading.listAccounts(ctx),
  accountcreate: async (input, ctx) => ctx.services.trading.createAccount(ctx, input),
  info: async (input, ctx) => ctx.services.trading.accountInfo(ctx, input.account_id),
  demoreset: async (input, ctx) => ctx.services.trading.resetDemo(ctx, input),
  positions: async (input, ctx) => ctx.services.trading.positions(ctx, input.account_id),
  pendingorders: async (input, ctx) => ctx.services.trading.pendingOrders(ctx, input.account_id),
  ordersend: async (input, ctx) => ctx.services.trading.sendOrder(ctx, input),
  ordermodify: async (input, ctx) => ctx.services.trading.modifyOrder(ctx, input),
  ordercancel: async (input, ctx) => ctx.services.trading.cancelOrder(ctx, input),
  positionmodify: async (input, ctx) => ctx.services.trading.modifyPosition(ctx, input),
  positionclose: async (input, ctx) => ctx.services.trading.closePosition(ctx, input),
  closeall: async (input, ctx) => ctx.services.trading.closeAll(ctx, input),
  ordermargin: async (input, ctx) => ctx.services.trading.marginPreview(ctx, input),
  dealhistory: async (input, ctx) => ctx.services.trading.deals(ctx, input),
  orderhistory: async (input, ctx) => ctx.services.trading.finishedOrders(ctx, input),
  profile: async (_input, ctx) => simpleUser(ctx, userIdOf(ctx)),
  saveprofile: async (input, ctx) => saveProfile(ctx, userIdOf(ctx), input),
  bindcontact: async (input, ctx) => bindContact(ctx, userIdOf(ctx), input),
  feedback: async (input, ctx) => {
    await enforceLimit(ctx, 'feedback', 10, 3_600_000);
    return submitFeedback(ctx, userIdOf(ctx), input);
  },
  pushkey: async (_input, ctx) => ({ publicKey: ctx.services.vapid.publicKey }),
  pushinsert: async (input, ctx) => insertPushSubscription(ctx, userIdOf(ctx), input),
  pushdelete: async (input, ctx) => deletePushSubscription(ctx, userIdOf(ctx), input),
  pushget: async (_input, ctx) => listPushSubscriptions(ctx, userIdOf(ctx)),
  oidcproviders: async (_input, ctx) => listProviders(ctx),
  unionstart: async (input, ctx) => {
    await enforceLimit(ctx, 'unionstart', 30, 60_000);
    return startUnion(ctx, input);
  },
  identities: async (_input, ctx) => listIdentities(ctx, userIdOf(ctx)),
  unbindidentity: async (input, ctx) => unbindIdentity(ctx, userIdOf(ctx), input.slug),
  userlogin: async (input, ctx) => {
    const userId = userIdOf(ctx);
    if (input.user_id !== userId) throw new AppError(AppErrorCode.FORBIDDEN);
    const numeric = input.countryCode ? countries.alpha2ToNumeric(input.countryCode) : undefined;
    if (numeric)
      await ctx.services.database.db
        .updateTable('users')
        .set({ country_code: numeric })
        .where('id', '=', userId)
        .where('country_code', 'is', null)
        .execute();
    await recordAudit(ctx.services.database.db, {
      tenantId: ctx.tenant.id,
      actorKind: 'user',
      actorId: userId,
      action: 'user.login.client',
      ip: ctx.ip,
      details: { language: input.languageCode, country: input.countryCode ?? null },
    });
    const user = await userProfile({ db: ctx.services.database.db, userId, tenantId: ctx.tenant.id });
    if (!user) throw new AppError(AppErrorCode.TOKEN_INVALID);
    return user;
  },
  save_token: async (input, ctx) => parkHandoff(ctx, userIdOf(ctx), input),
  trans_token: async (input, ctx) => {
    await throttleLogin(ctx, 'handoff');
    return openUserSession(ctx, await takeHandoff(ctx, input));
  },

  captcha: async (_input, ctx) => {
    await enforceLimit(ctx, 'captcha', 30, 60_000);
    return issueChallenge({
      db: ctx.services.database.db,
      difficulty: ctx.services.config.CAPTCHA_DIFFICULTY,
    });
  },

  sendcode: async (input, ctx) => {
    await enforceLimit(ctx, 'sendcode', 20, 10 * 60_000);
    return sendCode(ctx, input);
  },

  register: async (input, ctx) => openUserSession(ctx, await registerTrader(ctx, input)),

  forgetpassword: async (input, ctx) => {
    await resetPassword(ctx, input);
    return { ok: true as const };
  },

  phonelogin: async (input, ctx) => {
    await throttleLogin(ctx, 'user');
    return openUserSession(ctx, await phoneCodeLogin(ctx, input));
  },

  emailregistered: async (input, ctx) => ({ registered: await isRegistered(ctx, input) }),

  phoneregistered: async (input, ctx) => ({ registered: await isRegistered(ctx, input) }),
  countrylist: async (input, ctx) =>
    groupedCountries(input.list ?? (ctx.locale.startsWith('zh') ? 'zh' : 'en')),

  localelist: async () => LOCALES.map(({ code, iso, name, file }) => ({ code, iso, name, file })),

  legaldoc: async (input) => legalDocument(isLocaleCode(input.lang) ? input.lang : 'en', input.name),

  login: async (input, ctx) => {
    await throttleLogin(ctx, 'user');
    const db = ctx.services.database.db;
    const login =
      'email' in input
        ? { login: input.email, loginBy: 'email' as const }
        : { login: e164(input.phone), loginBy: 'phone' as const };
    const { token, session, subjectId } = await signIn({
      db,
      tenantId: ctx.tenant.id,
      subjectKind: 'user',
      ...login,
      password: input.password,
      otp: input.otp,
      userAgent: ctx.userAgent,
      ip: ctx.ip,
    });
    const user = await userProfile({ db, userId: subjectId, tenantId: ctx.tenant.id });
    if (!user) throw new AppError(AppErrorCode.ACCOUNT_OR_PASSWORD_WRONG);
    setSessionCookies(ctx.reply, { token, session, secure: secureCookies(ctx), displayName: user.name });
    return {
      csrfToken: session.csrfToken,
      expiresAt: session.absoluteExpiresAt.toISOString(),
      cipherKey: session.cipherKey ?? undefined,
      user,
    };
  },

  logout: (_input, ctx) => signOut(ctx, 'user'),

  userinfo: async (_input, ctx) => {
    const user = await userProfile({
      db: ctx.services.database.db,
      userId: ctx.userSession!.subjectId,
      tenantId: ctx.tenant.id,
    });
    if (!user) throw new AppError(AppErrorCode.TOKEN_INVALID);
    return { ...user, cipherKey: ctx.userSession!.cipherKey ?? '' };
  },

  totpsetup: async (_input, ctx) => {
    const user = await userProfile({
      db: ctx.services.database.db,
      userId: ctx.userSession!.subjectId,
      tenantId: ctx.tenant.id,
    });
    return beginTotp({
      db: ctx.services.database.db,
      userId: ctx.userSession!.subjectId,
      label: user?.email ?? user?.phone ?? 'trader',
      issuer: ctx.tenant.name,
    });
  },

  totpenable: async (input, ctx) => {
    await enableTotp({
      db: ctx.services.database.db,
      tenantId: ctx.tenant.id,
      userId: ctx.userSession!.subjectId,
      code: input.code,
      ip: ctx.ip,
    });
    return { ok: true as const };
  },

  totpdisable: async (input, ctx) => {
    await disableTotp({
      db: ctx.services.database.db,
      tenantId: ctx.tenant.id,
      userId: ctx.userSession!.subjectId,
      code: input.code,
      ip: ctx.ip,
    });
    return { ok: true as const };
  },

  qrticket: async (_input, ctx) => {
    await enforceLimit(ctx, 'qr', 30, 60_000);
    return ctx.services.qrLogin.create(ctx.tenant.id);
  },

  qrstatus: async (input, ctx) => {
    const result = await ctx.services.qrLogin.poll(ctx.tenant.id, input.ticket, input.waitMs);
    if (result.status !== 'confirmed' || !result.userId) return { status: result.status, session: null };
    return { status: 'confirmed' as const, session: await openUserSession(ctx, result.userId) };
  },

  qrscan: async (input, ctx) => {
    await ctx.services.qrLogin.advance(ctx.tenant.id, input.ticket, ctx.userSession!.subjectId, 'scanned');
    return { ok: true as const };
  },

  qrconfirm: async (input, ctx) => {
    await ctx.services.qrLogin.advance(
      ctx.tenant.id,
      input.ticket,
      ctx.userSession!.subjectId,
      input.approve ? 'confirmed' : 'cancelled',
    );
    await recordAudit(ctx.services.database.db, {
      tenantId: ctx.tenant.id,
      actorKind: 'user',
      actorId: ctx.userSession!.subjectId,
      action: input.approve ? 'user.qr.confirm' : 'user.qr.cancel',
      ip: ctx.ip,
    });
    return { ok: true as const };
  },

  sessionlist: async (_input, ctx) =>
    listSessions({
      db: ctx.services.database.db,
      userId: ctx.userSession!.subjectId,
      currentHash: ctx.userSession!.tokenHash,
    }),

  sessionrevoke: async (input, ctx) => ({
    revoked: await revokeSessions({
      db: ctx.services.database.db,
      userId: ctx.userSession!.subjectId,
      currentHash: ctx.userSession!.tokenHash,
      id: 'id' in input ? input.id : null,
    }),
  }),

  changepassword: async (input, ctx) => {
    await changePassword({
      db: ctx.services.database.db,
      tenantId: ctx.tenant.id,
      userId: ctx.userSession!.subjectId,
      oldPassword: input.oldPassword,
      password: input.password,
      ip: ctx.ip,
    });
    clearSessionCookies(ctx.reply, 'user');
    return { ok: true as const };
  },

  settings: async (_input, ctx) =>
    loadSettings({ db: ctx.services.database.db, userId: ctx.userSession!.subjectId }),

  savesettings: async (input, ctx) => {
    const settings = await saveSettings({
      db: ctx.services.database.db,
      userId: ctx.userSession!.subjectId,
      patch: input,
    });
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

  tradetoken: async (input, ctx) => {
    const session = ctx.userSession!;
    openTradeRequest({ session, cipherText: input.cipher_text, iv: input.iv_key });
    return issueTradeToken({ secret: ctx.services.appSecret, session });
  },

  adminlogin: async (input, ctx) => {
    await throttleLogin(ctx, 'staff');
    return signInStaff(ctx, input);
  },

  adminlogout: (_input, ctx) => signOut(ctx, 'staff'),

  adminme: async (_input, ctx) => ({
    ...(await staffSession(ctx, ctx.staff!)),
    csrfToken: ctx.staffSession!.csrfToken,
  }),

  adminoverview: async (_input, ctx) => {
    const db = ctx.services.database.db;
    const tenantId = ctx.tenant.id;
    const count = async (query: Promise<{ n: string | number | bigint } | undefined>) =>
      Number((await query)?.n ?? 0);
    const startOfDay = new Date();
    startOfDay.setUTCHours(0, 0, 0, 0);
    return {
      // The platform operator sees every broker; a broker sees only itself.
      tenants: await count(
        db
          .selectFrom('tenants')
          .select(sql<number>`count(*)`.as('n'))
          .where((eb) =>
            eb.or([
              eb('id', '=', tenantId),
              eb.exists(
                db
                  .selectFrom('tenants as me')
                  .select('me.id')
                  .where('me.id', '=', tenantId)
                  .where('me.is_default', '=', true),
              ),
            ]),
          )
          .executeTakeFirst(),
      ),
      users: await count(
        db
          .selectFrom('users')
          .select(sql<number>`count(*)`.as('n'))
          .where('tenant_id', '=', tenantId)
          .executeTakeFirst(),
      ),
      staff: await count(
        db
          .selectFrom('staff')
          .select(sql<number>`count(*)`.as('n'))
          .where('tenant_id', '=', tenantId)
          .executeTakeFirst(),
      ),
      pageViewsToday: await count(
        db
          .selectFrom('page_views')
          .select(sql<number>`count(*)`.as('n'))
          .where('tenant_id', '=', tenantId)
          .where('created_at', '>=', startOfDay)
          .executeTakeFirst(),
      ),
    };
  },
};
