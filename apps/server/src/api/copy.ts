import type { copyAdminRoutes } from '@broker/contracts/admin/copy-routes';
import type { copyRoutes } from '@broker/contracts/copy-routes';
import type { TCallContext } from '../http/context';
import type { THandlers } from '../http/gateway';
import {
  adminCopySettings,
  adminLeaders,
  adminRelations,
  adminSettlements,
  applyToLead,
  copyExposure,
  leaderDashboard,
  leaderProfile,
  listLeaders,
  moveCopyFunds,
  myCopies,
  parityReport,
  pauseCopy,
  reviewLeader,
  saveAdminCopySettings,
  saveLeaderSettings,
  startCopy,
  stopCopy,
  suspendLeader,
  type TCopyPorts,
  updateCopy,
  whatIf,
} from '../modules/copy';
import { staffActorOf, tradingPorts, userActorOf } from './actors';

/** The copy-trading use cases' ports: trading's, mail and the request's logger. */
export const copyPorts = (ctx: TCallContext): TCopyPorts => ({
  ...tradingPorts(ctx),
  mailer: ctx.services.mailer,
  log: ctx.request.log,
});

type TCopyHandlers = Pick<THandlers, keyof typeof copyRoutes | keyof typeof copyAdminRoutes>;

/** Handlers of the `follow` route family (spec 7.8) and the back office's copy-trading routes. */
export const copyHandlers: TCopyHandlers = {
  followleaders: (input, ctx) => listLeaders(copyPorts(ctx), { ...input, tenantId: ctx.tenant.id }),
  followleader: (input, ctx) =>
    leaderProfile(copyPorts(ctx), {
      tenantId: ctx.tenant.id,
      leaderId: input.leader_id,
      viewer: ctx.userSession ? userActorOf(ctx) : null,
    }),
  followwhatif: (input, ctx) => whatIf(copyPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  followstart: (input, ctx) => startCopy(copyPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  followupdate: (input, ctx) => updateCopy(copyPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  followpause: (input, ctx) => pauseCopy(copyPorts(ctx), { ...input, pause: true, actor: userActorOf(ctx) }),
  followresume: (input, ctx) =>
    pauseCopy(copyPorts(ctx), { ...input, pause: false, actor: userActorOf(ctx) }),
  followstop: (input, ctx) => stopCopy(copyPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  followfunds: (input, ctx) => moveCopyFunds(copyPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  followmine: (input, ctx) => myCopies(copyPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  followparity: (input, ctx) => parityReport(copyPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  followapply: (input, ctx) => applyToLead(copyPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  followleadersettings: (input, ctx) =>
    saveLeaderSettings(copyPorts(ctx), { ...input, actor: userActorOf(ctx) }),
  followdashboard: (input, ctx) => leaderDashboard(copyPorts(ctx), { ...input, actor: userActorOf(ctx) }),

  admincopyleaders: (input, ctx) => adminLeaders(copyPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  admincopyreview: (input, ctx) => reviewLeader(copyPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  admincopysuspend: (input, ctx) => suspendLeader(copyPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  admincopyrelations: (input, ctx) => adminRelations(copyPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  admincopysettlements: (input, ctx) =>
    adminSettlements(copyPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  admincopyexposure: (_input, ctx) => copyExposure(copyPorts(ctx), { actor: staffActorOf(ctx) }),
  admincopysettings: (_input, ctx) => adminCopySettings(copyPorts(ctx), { actor: staffActorOf(ctx) }),
  admincopysettingssave: (input, ctx) =>
    saveAdminCopySettings(copyPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
};
