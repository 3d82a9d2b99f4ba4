import type { ColumnType, Generated } from 'kysely';
import type { CredentialColumns, Timestamp } from '../../db/columns';

export interface UsersTable extends CredentialColumns {
  email: string | null;
  phone: ColumnType<string | null, string | null | undefined, string | null>;
  settings: ColumnType<unknown, string | undefined, string>;
  totp_secret: ColumnType<string | null, string | null | undefined, string | null>;
  totp_pending_secret: ColumnType<string | null, string | null | undefined, string | null>;
  country_code: string | null;
  nick: ColumnType<string | null, string | null | undefined, string | null>;
  avatar_file_id: ColumnType<string | null, string | null | undefined, string | null>;
  sex: ColumnType<number, number | undefined, number>;
  profile: ColumnType<string, string | undefined, string>;
  contacts: ColumnType<unknown, string | undefined, string>;
  kyc_status: ColumnType<TKycStatus, TKycStatus | undefined, TKycStatus>;
}

export interface SessionsTable {
  token_hash: string;
  tenant_id: string;
  subject_kind: 'user' | 'staff';
  subject_id: string;
  csrf_token: string;
  user_agent: string | null;
  ip: string | null;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  idle_expires_at: Date;
  absolute_expires_at: Date;
  revoked_at: Date | null;
  cipher_key: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface VerificationCodesTable {
  id: Generated<string>;
  tenant_id: string;
  channel: 'email' | 'sms' | 'whatsapp';
  target: string;
  purpose: 'register' | 'reset' | 'login' | 'bind';
  code_hash: string;
  attempts: ColumnType<number, number | undefined, number>;
  expires_at: Date;
  consumed_at: Date | null;
  created_at: Timestamp;
}

export interface CaptchaChallengesTable {
  id: string;
  salt: string;
  difficulty: number;
  expires_at: Date;
  used_at: Date | null;
}

export interface OauthClientsTable {
  tenant_id: string;
  client_id: string;
  name: string;
  client_secret_hash: string;
  provision_key_hash: string;
  redirect_uri: string;
  created_at: Timestamp;
}

export interface OauthCodesTable {
  code_hash: string;
  tenant_id: string;
  client_id: string;
  authenticated_userid: string;
  scope: string;
  expires_at: Date;
  used_at: Date | null;
}

export interface OauthTokensTable {
  token_hash: string;
  kind: 'access' | 'refresh';
  tenant_id: string;
  client_id: string;
  authenticated_userid: string;
  scope: string;
  expires_at: Date;
  revoked_at: Date | null;
  created_at: Timestamp;
}

export interface QrTicketsTable {
  ticket_hash: string;
  tenant_id: string;
  status: 'waiting' | 'scanned' | 'confirmed' | 'consumed' | 'cancelled';
  user_id: string | null;
  expires_at: Date;
  created_at: Timestamp;
}

export interface OidcProvidersTable {
  id: string;
  tenant_id: string;
  slug: string;
  name: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  scopes: ColumnType<string, string | undefined, string>;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
}

export interface OidcStatesTable {
  state_hash: string;
  tenant_id: string;
  provider_id: string;
  code_verifier: string;
  nonce: string;
  mode: 'login' | 'bind';
  user_id: string | null;
  lang: string;
  redirect: string;
  expires_at: Date;
  created_at: Timestamp;
}

export interface UserIdentitiesTable {
  provider_id: string;
  subject: string;
  tenant_id: string;
  user_id: string;
  email: string | null;
  name: string | null;
  created_at: Timestamp;
}

export interface SessionHandoffsTable {
  token_hash: string;
  tenant_id: string;
  user_id: string;
  finger_key: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: Timestamp;
}

export type TKycStatus = 'none' | 'pending' | 'approved' | 'rejected';

/** The tables the identity module owns: only its files write them; other modules call its use cases (ADR 011). */
export interface TIdentitySchema {
  captcha_challenges: CaptchaChallengesTable;
  oauth_clients: OauthClientsTable;
  oauth_codes: OauthCodesTable;
  oauth_tokens: OauthTokensTable;
  oidc_providers: OidcProvidersTable;
  oidc_states: OidcStatesTable;
  qr_tickets: QrTicketsTable;
  session_handoffs: SessionHandoffsTable;
  sessions: SessionsTable;
  user_identities: UserIdentitiesTable;
  users: UsersTable;
  verification_codes: VerificationCodesTable;
}
