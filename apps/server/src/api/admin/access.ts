import type { accessRoutes } from '@broker/contracts/admin/access-routes';
import type { THandlers } from '../../http/gateway';
import {
  approvePolicyRequest,
  beginMyTotp,
  cancelPolicyRequest,
  changeMyPassword,
  createBroker,
  createStaff,
  deleteRole,
  disableMyTotp,
  enableMyTotp,
  listBrokers,
  listRoles,
  listStaff,
  mySecurity,
  readMenuLayout,
  rejectPolicyRequest,
  resetStaffPassword,
  resetStaffTotp,
  saveAccessSettings,
  saveMenuLayout,
  saveRole,
  setBrokerStatus,
  setStaffStatus,
  unlockStaff,
  updateBroker,
  updateStaff,
} from '../../modules/access';
import { staffActorOf, tradingPorts } from '../actors';
import { accessPorts, signedInStaff, staffSessionHandlers } from './staff-session';

/**
 * Handlers of the back office's access routes, with staff sign-in and the signed-in member's view:
 * each one the signed-in staff member (and, where what they may grant matters, their profile) as the
 * actor of a use case.
 */
export const accessHandlers: Pick<THandlers, keyof typeof accessRoutes | 'adminlogin' | 'adminme'> = {
  ...staffSessionHandlers,
  adminrolelist: (_input, ctx) => listRoles(accessPorts(ctx), { actor: staffActorOf(ctx) }),
  adminrolesave: (input, ctx) => saveRole(accessPorts(ctx), { ...input, ...signedInStaff(ctx) }),
  adminroledelete: (input, ctx) => deleteRole(accessPorts(ctx), { id: input.id, actor: staffActorOf(ctx) }),
  adminstafflist: (_input, ctx) => listStaff(accessPorts(ctx), { actor: staffActorOf(ctx) }),
  adminstaffcreate: (input, ctx) => createStaff(accessPorts(ctx), { ...input, ...signedInStaff(ctx) }),
  adminstaffupdate: (input, ctx) => updateStaff(accessPorts(ctx), { ...input, ...signedInStaff(ctx) }),
  adminstaffstatus: (input, ctx) => setStaffStatus(accessPorts(ctx), { ...input, ...signedInStaff(ctx) }),
  adminstaffunlock: (input, ctx) => unlockStaff(accessPorts(ctx), { id: input.id, ...signedInStaff(ctx) }),
  adminstaffpassword: (input, ctx) =>
    resetStaffPassword(accessPorts(ctx), { ...input, ...signedInStaff(ctx) }),
  adminstafftotpreset: (input, ctx) =>
    resetStaffTotp(accessPorts(ctx), { id: input.id, ...signedInStaff(ctx) }),
  adminstaffsettings: (input, ctx) =>
    saveAccessSettings(accessPorts(ctx), { ...input, ...signedInStaff(ctx) }),
  adminstaffsettingsapprove: (input, ctx) =>
    approvePolicyRequest(accessPorts(ctx), { id: input.id, ...signedInStaff(ctx) }),
  adminstaffsettingsreject: (input, ctx) =>
    rejectPolicyRequest(accessPorts(ctx), { id: input.id, actor: staffActorOf(ctx) }),
  adminstaffsettingscancel: (input, ctx) =>
    cancelPolicyRequest(accessPorts(ctx), { id: input.id, actor: staffActorOf(ctx) }),
  adminmenuget: (_input, ctx) => readMenuLayout(accessPorts(ctx), { actor: staffActorOf(ctx) }),
  adminmenusave: (input, ctx) => saveMenuLayout(accessPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  adminbrokerlist: (_input, ctx) => listBrokers(accessPorts(ctx), { actor: staffActorOf(ctx) }),
  adminbrokercreate: (input, ctx) =>
    createBroker(tradingPorts(ctx), {
      ...input,
      actor: staffActorOf(ctx),
      managedAt: ctx.request.headers.host,
    }),
  adminbrokerupdate: (input, ctx) =>
    updateBroker(accessPorts(ctx), {
      ...input,
      actor: staffActorOf(ctx),
      managedAt: ctx.request.headers.host,
    }),
  adminbrokerstatus: (input, ctx) =>
    setBrokerStatus(accessPorts(ctx), { ...input, actor: staffActorOf(ctx) }),
  adminmysecurity: (_input, ctx) => mySecurity(accessPorts(ctx), signedInStaff(ctx)),
  adminmytotpbegin: (_input, ctx) =>
    beginMyTotp(accessPorts(ctx), { actor: staffActorOf(ctx), issuer: ctx.tenant.name }),
  adminmytotpenable: (input, ctx) =>
    enableMyTotp(accessPorts(ctx), { code: input.code, actor: staffActorOf(ctx) }),
  adminmytotpdisable: (input, ctx) =>
    disableMyTotp(accessPorts(ctx), { code: input.code, ...signedInStaff(ctx) }),
  adminmypassword: (input, ctx) =>
    changeMyPassword(accessPorts(ctx), {
      ...input,
      actor: staffActorOf(ctx),
      currentSession: ctx.staffSession?.tokenHash ?? null,
    }),
};
