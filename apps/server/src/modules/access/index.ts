/** The access module's public face: the only file other modules and the HTTP layer import. */

export { createBroker, listBrokers, setBrokerStatus, updateBroker } from './admin/brokers';
export { readMenuLayout, saveMenuLayout } from './admin/menus';
export {
  approvePolicyRequest,
  cancelPolicyRequest,
  rejectPolicyRequest,
  saveAccessSettings,
} from './admin/policy';
export { deleteRole, listRoles, saveRole } from './admin/roles';
export {
  createStaff,
  listStaff,
  resetStaffPassword,
  resetStaffTotp,
  setStaffStatus,
  unlockStaff,
  updateStaff,
} from './admin/staff-admin';
export {
  beginMyTotp,
  changeMyPassword,
  disableMyTotp,
  enableMyTotp,
  finishEnrolment,
  mySecurity,
  signInStaff,
  staffSession,
  startEnrolment,
  type TStaffSignedIn,
  type TStaffSignInResult,
} from './admin/staff-sign-in';
export type { TAccessPorts, TSignedInStaff } from './common';
export { countActiveStaff, countStaff, staffIdsByUsername, staffNames } from './directory';
export type { TStaffProfile } from './staff';
export { DEFAULT_ACCESS_SETTINGS, ensureAccessSettings, ensureAdministrator, staffProfile } from './staff';
