import type { ColumnType, Generated } from 'kysely';
import type { TAccessSchema } from './schema-access';
import type { TAuditSchema } from './schema-audit';
import type { TCustomersSchema } from './schema-customers';
import type { TMarketConfigSchema } from './schema-market-config';
import type { TRiskSchema } from './schema-risk';

export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface TenantsTable {
  id: string;
  slug: string;
  name: string;
  status: ColumnType<'active' | 'suspended', 'active' | 'suspended' | undefined>;
  is_default: ColumnType<boolean, boolean | undefined>;
  created_at: Timestamp;
}
export interface TenantDomainsTable {
  host: string;
  tenant_id: string;
}
interface CredentialColumns {
  id: string;
  tenant_id: string;
  password_hash: string;
  display_name: string;
  status: ColumnType<'active' | 'disabled', 'active' | 'disabled' | undefined>;
  failed_attempts: ColumnType<number, number | undefined>;
  locked_until: Date | null;
  created_at: Timestamp;
}
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
}
export interface StaffTable extends CredentialColumns {
  username: string;
}
export interface RolesTable {
  id: string;
  tenant_id: string;
  name: string;
  parent_id: string | null;
  permissions: string[];
  created_at: Timestamp;
}
export interface StaffRolesTable {
  staff_id: string;
  role_id: string;
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
export interface PageViewsTable {
  id: Generated<string>;
  tenant_id: string;
  path: string;
  lang: string | null;
  device: string;
  status: number;
  user_agent: string | null;
  created_at: Timestamp;
}
export interface AuditEventsTable {
  id: Generated<string>;
  tenant_id: string;
  actor_kind: string;
  actor_id: string | null;
  action: string;
  target: string | null;
  ip: string | null;
  details: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: Timestamp;
  /** Position in the broker's hash chain, from 1; set by the database on insert (migration 015). */
  seq: ColumnType<string | number, never, never>;
  /** Hash of the previous entry (64 zeros for the first); set by the database on insert. */
  prev_hash: ColumnType<string, never, never>;
  /** SHA-256 of this entry (docs/backoffice/audit.md); set by the database on insert. */
  hash: ColumnType<string, never, never>;
}
export interface SchemaMigrationsTable {
  version: number;
  name: string;
  applied_at: Timestamp;
}

export interface InstrumentsTable {
  tenant_id: string;
  symbol: string;
  category: string;
  base: string;
  quote: string;
  digits: number;
  contract_size: string;
  min_volume: string;
  volume_step: string;
  max_volume: string;
  default_leverage: number;
  margin_currency: string;
  profit_currency: string;
  sessions: ColumnType<unknown, string, string>;
  swap_long: string;
  swap_short: string;
  enabled: boolean;
  close_only: boolean;
  short_allowed: boolean;
  hot: boolean;
  sort: number;
  markup_points: ColumnType<number, number | undefined, number>;
  stops_level_points: ColumnType<number, number | undefined, number>;
  commission_per_lot: ColumnType<string, string | number | undefined, string | number>;
  max_leverage: ColumnType<number | null, number | null | undefined, number | null>;
  /** Migration 016: [{ upToLots, maxLeverage }] ascending (market configuration). */
  leverage_tiers: ColumnType<unknown, string | undefined, string>;
  updated_at: Timestamp;
}
export interface CandlesTable {
  symbol: string;
  timeframe: string;
  open_time: ColumnType<string, number | string, number | string>;
  open: ColumnType<string, number | string, number | string>;
  high: ColumnType<string, number | string, number | string>;
  low: ColumnType<string, number | string, number | string>;
  close: ColumnType<string, number | string, number | string>;
  volume: ColumnType<string, number | string, number | string>;
}
export interface FilteredTicksTable {
  id: Generated<string>;
  symbol: string;
  tick_time: ColumnType<string, number, number>;
  bid: ColumnType<string, number, number>;
  ask: ColumnType<string, number, number>;
  reference: ColumnType<string, string, string>;
  deviation: ColumnType<string, string, string>;
  created_at: Timestamp;
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
export interface SmsOutboxTable {
  id: Generated<string>;
  provider_id: string;
  channel: string;
  recipient: string;
  body: string;
  status: string;
  created_at: Timestamp;
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

export interface StoredFilesTable {
  id: string;
  tenant_id: string;
  user_id: string;
  purpose: 'avatar' | 'feedback';
  mime: 'image/jpeg' | 'image/png' | 'video/mp4' | 'video/x-msvideo';
  size_bytes: ColumnType<string, number, number>;
  sha256: string;
  created_at: Timestamp;
}
export interface FeedbackTable {
  id: string;
  tenant_id: string;
  user_id: string;
  body: string;
  contacts: ColumnType<unknown, string, string>;
  attachments: ColumnType<unknown, string | undefined, string>;
  status: ColumnType<'new' | 'read' | 'closed', 'new' | 'read' | 'closed' | undefined>;
  locale: string | null;
  user_agent: string | null;
  idempotency_key: string;
  created_at: Timestamp;
}
export interface PushSubscriptionsTable {
  id: string;
  tenant_id: string;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  user_agent: string | null;
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

export type BigintColumn = ColumnType<string | number, number | string, number | string>;
export type NullableBigint = ColumnType<
  string | number | null,
  number | string | null,
  number | string | null
>;
export interface TradingAccountsTable {
  id: BigintColumn;
  tenant_id: string;
  user_id: string;
  account_type: number;
  trade_type: number;
  currency: string;
  leverage: number;
  balance: BigintColumn;
  follow_equity: BigintColumn;
  strategy_equity: BigintColumn;
  init_money: BigintColumn;
  total_in: BigintColumn;
  total_out: BigintColumn;
  margin_call_bp: number;
  stop_out_bp: number;
  margin_call: boolean;
  negative_balance_protection: boolean;
  restrictions: ColumnType<unknown, string, string>;
  closed: boolean;
  group_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface PositionsTable {
  id: BigintColumn;
  account_id: BigintColumn;
  symbol: string;
  side: 'buy' | 'sell';
  volume: number;
  open_price: BigintColumn;
  open_time: BigintColumn;
  take_profit: NullableBigint;
  stop_loss: NullableBigint;
  margin: BigintColumn;
  swap: BigintColumn;
  commission: BigintColumn;
}
export interface PendingOrdersTable {
  id: BigintColumn;
  account_id: BigintColumn;
  symbol: string;
  order_type: string;
  volume: number;
  price: BigintColumn;
  limit_price: NullableBigint;
  activated: boolean;
  take_profit: NullableBigint;
  stop_loss: NullableBigint;
  placed_time: BigintColumn;
}
export interface DealsTable {
  id: Generated<string>;
  position_id: BigintColumn;
  account_id: BigintColumn;
  symbol: string;
  side: string;
  volume: number;
  open_price: BigintColumn;
  close_price: BigintColumn;
  open_time: BigintColumn;
  close_time: BigintColumn;
  profit: BigintColumn;
  swap: BigintColumn;
  commission: BigintColumn;
  reason: number;
}
export interface OrderHistoryTable {
  id: BigintColumn;
  account_id: BigintColumn;
  symbol: string;
  order_type: string;
  volume: number;
  price: BigintColumn;
  limit_price: NullableBigint;
  take_profit: NullableBigint;
  stop_loss: NullableBigint;
  placed_time: BigintColumn;
  done_time: BigintColumn;
  status: 'filled' | 'cancelled';
  cancel_reason: string | null;
  position_id: NullableBigint;
  fill_price: NullableBigint;
}
export interface LedgerEntriesTable {
  id: Generated<string>;
  tx_id: BigintColumn;
  account_id: BigintColumn;
  ledger_account: string;
  amount: BigintColumn;
  kind: string;
  currency: string;
  position_id: NullableBigint;
  balance_after: BigintColumn;
  created_at: BigintColumn;
}
export interface EngineIdempotencyTable {
  key: string;
  fingerprint: string;
  result: ColumnType<unknown, string, string>;
  created_at: Timestamp;
}

/** The whole database; each back-office area declares its own tables in `schema-<area>.ts`. */
export interface TDatabaseSchema
  extends TAccessSchema,
    TAuditSchema,
    TCustomersSchema,
    TMarketConfigSchema,
    TRiskSchema {
  trading_accounts: TradingAccountsTable;
  positions: PositionsTable;
  pending_orders: PendingOrdersTable;
  deals: DealsTable;
  order_history: OrderHistoryTable;
  ledger_entries: LedgerEntriesTable;
  engine_idempotency: EngineIdempotencyTable;
  session_handoffs: SessionHandoffsTable;
  stored_files: StoredFilesTable;
  feedback: FeedbackTable;
  push_subscriptions: PushSubscriptionsTable;
  oidc_providers: OidcProvidersTable;
  oidc_states: OidcStatesTable;
  user_identities: UserIdentitiesTable;
  qr_tickets: QrTicketsTable;
  oauth_clients: OauthClientsTable;
  oauth_codes: OauthCodesTable;
  oauth_tokens: OauthTokensTable;
  verification_codes: VerificationCodesTable;
  captcha_challenges: CaptchaChallengesTable;
  sms_outbox: SmsOutboxTable;
  instruments: InstrumentsTable;
  candles: CandlesTable;
  filtered_ticks: FilteredTicksTable;
  tenants: TenantsTable;
  tenant_domains: TenantDomainsTable;
  users: UsersTable;
  staff: StaffTable;
  roles: RolesTable;
  staff_roles: StaffRolesTable;
  sessions: SessionsTable;
  page_views: PageViewsTable;
  audit_events: AuditEventsTable;
  schema_migrations: SchemaMigrationsTable;
}
