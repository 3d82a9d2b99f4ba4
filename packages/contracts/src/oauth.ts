/**
 * The portal's OAuth2 client for anonymous bearer tokens (spec 6, 7.1). A browser app cannot keep
 * a secret, so these are public by design: an anonymous token identifies a device, never a person,
 * and grants only what anonymous visitors may do.
 */
export const WEB_OAUTH_CLIENT = {
  clientId: 'web-portal',
  clientSecret: 'web-portal-public-secret',
  provisionKey: 'web-portal-provision-key',
  scope: 'anonymous',
  redirectUri: '/oauth2/callback',
} as const;

/** Access tokens live 1200 s; clients treat them as 60 s shorter (spec 7.1). */
export const ACCESS_TOKEN_SECONDS = 1200;
export const ACCESS_TOKEN_CLIENT_MARGIN_SECONDS = 60;
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 3600;
