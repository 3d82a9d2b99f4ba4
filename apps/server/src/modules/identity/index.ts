/** The identity module's public face: the only file other modules and the HTTP layer import. */
export {
  changePassword,
  listSessions,
  loadSettings,
  revokeSessions,
  saveSettings,
  setTraderStatus,
  signOutTrader,
} from './account-security';
export { issueChallenge } from './captcha';
export type { TUserSearch } from './directory';
export {
  countUsers,
  findUser,
  lastSignIn,
  recentSessions,
  searchUsers,
  userIdByIdOrEmail,
  userIdsByContact,
  userNames,
} from './directory';
export { parkHandoff, takeHandoff } from './handoff';
export type { TCustomerBrief } from './kyc-status';
export { customerBriefs, setKycStatus } from './kyc-status';
export { clearAttempts, takeAttempt, wrongCredential } from './lockout';
export type { TBearer, TOAuthGrant } from './oauth';
export { authorizeOAuth, ensureWebClient, findBearer, grantOAuthTokens } from './oauth';
export type { TUnionState } from './oidc';
export {
  finishUnion,
  listIdentities,
  listProviders,
  startUnion,
  takeUnionState,
  unbindIdentity,
  unionCallbackUrl,
} from './oidc';
export { OidcSandbox, SANDBOX_CLIENT_ID } from './oidc-sandbox';
export type { TOpenedSession } from './open-session';
export { openUserSession, secureCookies } from './open-session';
export { hashPassword, verifyPassword } from './passwords';
export type { TCodePorts, TIdentityPorts, TLog, TMessagePorts, TOidcPorts } from './ports';
export { bindContact, saveProfile, simpleUser } from './profile';
export type { TQrPorts } from './qr-login';
export { answerQrLogin, pollQrLogin, QrLogin, scanQrLogin, startQrLogin } from './qr-login';
export { isRegistered, phoneCodeLogin, registerTrader, resetPassword, sendCode } from './registration';
export { revokeStaffSessions, revokeTenantSessions } from './session-revocation';
export type { TSession } from './sessions';
export { createSession, findSession, forgetSessions, onSessionsRevoked, revokeSession } from './sessions';
export { checkCredentials, refuseUnknownLogin, signIn, signInTrader, signOut } from './sign-in';
export { beginTotp, disableTotp, enableTotp, totpStep, useTotpCode } from './totp';
export { tradeToken, verifyTradeToken } from './trade-token';
export { ensureDemoTrader, reportClientLogin, userInfo, userProfile } from './users';
