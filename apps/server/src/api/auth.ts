import type { THandlers } from '../http/gateway';
import {
  answerQrLogin,
  isRegistered,
  issueChallenge,
  listProviders,
  parkHandoff,
  phoneCodeLogin,
  pollQrLogin,
  registerTrader,
  resetPassword,
  scanQrLogin,
  sendCode,
  signInTrader,
  startQrLogin,
  startUnion,
  takeHandoff,
} from '../modules/identity';
import { userActorOf } from './actors';
import {
  anonymousCaller,
  codePorts,
  endSession,
  identityPorts,
  messagePorts,
  oidcPorts,
  qrPorts,
  sessionAnswer,
  startUserSession,
} from './identity';

/** Handlers of the trader's sign-in, sign-out, registration, codes, hand-offs and QR sign-in. */
export const authHandlers = {
  captcha: async (_input, ctx) =>
    issueChallenge(identityPorts(ctx), { difficulty: ctx.services.config.CAPTCHA_DIFFICULTY }),
  sendcode: async (input, ctx) =>
    sendCode(messagePorts(ctx), {
      ...input,
      tenantId: ctx.tenant.id,
      locale: ctx.locale,
      signedIn: ctx.userSession !== null,
    }),
  register: async (input, ctx) =>
    startUserSession(ctx, await registerTrader(codePorts(ctx), { ...input, ...anonymousCaller(ctx) })),
  forgetpassword: async (input, ctx) => {
    await resetPassword(codePorts(ctx), { ...input, ...anonymousCaller(ctx) });
    return { ok: true as const };
  },
  phonelogin: async (input, ctx) =>
    startUserSession(ctx, await phoneCodeLogin(codePorts(ctx), { ...input, tenantId: ctx.tenant.id })),
  emailregistered: async (input, ctx) => ({
    registered: await isRegistered(identityPorts(ctx), { ...input, tenantId: ctx.tenant.id }),
  }),
  phoneregistered: async (input, ctx) => ({
    registered: await isRegistered(identityPorts(ctx), { ...input, tenantId: ctx.tenant.id }),
  }),
  login: async (input, ctx) =>
    sessionAnswer(ctx, await signInTrader(identityPorts(ctx), { ...input, ...anonymousCaller(ctx) })),
  logout: (_input, ctx) => endSession(ctx, 'user'),
  save_token: async (input, ctx) => parkHandoff(identityPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  trans_token: async (input, ctx) =>
    startUserSession(ctx, await takeHandoff(identityPorts(ctx), { ...input, ...anonymousCaller(ctx) })),
  qrticket: async (_input, ctx) => startQrLogin(qrPorts(ctx), { tenantId: ctx.tenant.id }),
  qrstatus: async (input, ctx) => {
    const result = await pollQrLogin(qrPorts(ctx), { ...input, tenantId: ctx.tenant.id });
    if (result.status !== 'confirmed' || !result.userId) return { status: result.status, session: null };
    return { status: 'confirmed' as const, session: await startUserSession(ctx, result.userId) };
  },
  qrscan: async (input, ctx) => {
    await scanQrLogin(qrPorts(ctx), { ticket: input.ticket, actor: userActorOf(ctx) });
    return { ok: true as const };
  },
  qrconfirm: async (input, ctx) => {
    await answerQrLogin(qrPorts(ctx), { ...input, actor: userActorOf(ctx) });
    return { ok: true as const };
  },
  oidcproviders: async (_input, ctx) => listProviders(identityPorts(ctx), { tenantId: ctx.tenant.id }),
  unionstart: async (input, ctx) =>
    startUnion(oidcPorts(ctx.services, ctx.request.log), {
      ...input,
      actor: ctx.userSession ? userActorOf(ctx) : null,
      tenantId: ctx.tenant.id,
      origin: `${ctx.request.protocol}://${ctx.request.headers.host}`,
    }),
} satisfies Partial<THandlers>;
