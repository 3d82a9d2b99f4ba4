import type { accessRoutes } from '@broker/contracts/admin/access-routes';
import type { THandlers } from '../../../http/gateway';
import { createBroker, listBrokers, setBrokerStatus, updateBroker } from './brokers';
import { readMenuLayout, saveMenuLayout } from './menus';
import { deleteRole, listRoles, saveRole } from './roles';
import {
  beginMyTotp,
  changeMyPassword,
  disableMyTotp,
  enableMyTotp,
  finishEnrolment,
  mySecurity,
  startEnrolment,
} from './security';
import {
  createStaff,
  listStaff,
  resetStaffPassword,
  resetStaffTotp,
  saveAccessSettings,
  setStaffStatus,
  unlockStaff,
  updateStaff,
} from './staff-admin';

/** Handlers of the back office's access routes. */
export const accessHandlers: Pick<THandlers, keyof typeof accessRoutes> = {
  adminrolelist: (_input, ctx) => listRoles(ctx.services.database.db, ctx.tenant.id),
  adminrolesave: (input, ctx) => saveRole(ctx, input),
  adminroledelete: (input, ctx) => deleteRole(ctx, input.id),
  adminstafflist: (_input, ctx) => listStaff(ctx),
  adminstaffcreate: (input, ctx) => createStaff(ctx, input),
  adminstaffupdate: (input, ctx) => updateStaff(ctx, input),
  adminstaffstatus: (input, ctx) => setStaffStatus(ctx, input),
  adminstaffunlock: (input, ctx) => unlockStaff(ctx, input.id),
  adminstaffpassword: (input, ctx) => resetStaffPassword(ctx, input),
  adminstafftotpreset: (input, ctx) => resetStaffTotp(ctx, input.id),
  adminstaffsettings: (input, ctx) => saveAccessSettings(ctx, input),
  adminmenuget: (_input, ctx) => readMenuLayout(ctx.services.database.db, ctx.tenant.id),
  adminmenusave: (input, ctx) => saveMenuLayout(ctx, input),
  adminbrokerlist: (_input, ctx) => listBrokers(ctx),
  adminbrokercreate: (input, ctx) => createBroker(ctx, input),
  adminbrokerupdate: (input, ctx) => updateBroker(ctx, input),
  adminbrokerstatus: (input, ctx) => setBrokerStatus(ctx, input),
  adminmysecurity: (_input, ctx) => mySecurity(ctx),
  adminmytotpbegin: (_input, ctx) => beginMyTotp(ctx),
  adminmytotpenable: (input, ctx) => enableMyTotp(ctx, input.code),
  adminmytotpdisable: (input, ctx) => disableMyTotp(ctx, input.code),
  adminmypassword: (input, ctx) => changeMyPassword(ctx, input),
  adminenrolstart: (_input, ctx) => startEnrolment(ctx),
  adminenrolconfirm: (input, ctx) => finishEnrolment(ctx, input.code),
};
