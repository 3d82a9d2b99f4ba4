-- Issue 17: money in and out. Copy and strategy sub-accounts hang under a main account; deposits,
-- withdrawals, transfers, coins, the funding password, provider webhooks and unmatched payments are
-- the funding module's. Amounts are integer minor units; rates are exact decimal text.

alter table trading_accounts add column parent_id bigint references trading_accounts (id);
alter table trading_accounts add column purpose text check (purpose in ('copy', 'strategy'));
create index trading_accounts_parent on trading_accounts (parent_id) where parent_id is not null;

-- The broker's funding settings (methods, limits, fees, four-eyes threshold, lock hours, coin rules).
create table funding_settings (
  tenant_id text primary key references tenants (id),
  settings jsonb not null,
  updated_by text,
  updated_at timestamptz not null default now()
);

-- Funding password (argon2id) and the withdrawal lock its change starts (spec 9).
create table fund_passwords (
  tenant_id text not null references tenants (id),
  user_id text not null references users (id),
  password_hash text not null,
  changed_at timestamptz not null default now(),
  withdraw_locked_until timestamptz,
  -- Wrong funding passwords: counted and checked in one statement; 5 in a row lock it for 15 minutes.
  failed_attempts integer not null default 0,
  attempts_locked_until timestamptz,
  primary key (tenant_id, user_id)
);

create table deposits (
  id text primary key,
  tenant_id text not null references tenants (id),
  user_id text not null references users (id),
  account_id bigint not null,
  method text not null,
  provider text not null,
  status text not null check (status in ('pending', 'confirming', 'completed', 'failed', 'expired')),
  -- What the trader pays (method currency minor units) and the fee on top.
  amount bigint not null check (amount > 0),
  fee bigint not null default 0,
  method_currency text not null,
  account_currency text not null,
  -- Account currency per method-currency unit, as quoted at creation.
  rate text not null,
  -- What reached the account (account minor units) once completed.
  credited bigint,
  received bigint,
  provider_ref text,
  redirect_url text,
  address text,
  reference text,
  bank jsonb,
  confirmations integer,
  confirmations_needed integer,
  failure text,
  last_sequence integer not null default 0,
  idempotency_key text not null,
  ledger_tx_id bigint,
  expires_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, user_id, idempotency_key)
);
create index deposits_user on deposits (tenant_id, user_id, created_at desc);
create index deposits_status on deposits (tenant_id, status, created_at desc);
create index deposits_reference on deposits (reference) where reference is not null;
create index deposits_address on deposits (address) where address is not null;

create table withdrawals (
  id text primary key,
  tenant_id text not null references tenants (id),
  user_id text not null references users (id),
  account_id bigint not null,
  method text not null,
  provider text not null,
  status text not null check (status in ('initiated', 'awaiting_review', 'processing', 'rejected', 'completed', 'failed')),
  -- Taken from the account (account minor units), the fee out of it, and the payout (method minor units).
  amount bigint not null check (amount > 0),
  fee bigint not null default 0,
  payout bigint not null,
  method_currency text not null,
  account_currency text not null,
  rate text not null,
  amount_usd bigint not null,
  destination text not null,
  destination_masked text not null,
  to_source boolean not null default false,
  source_deposit_id text,
  source_ref text,
  reject_reason text,
  failure text,
  first_approved_by text,
  decided_by text,
  provider_ref text,
  device text,
  flags jsonb not null default '[]',
  steps jsonb not null default '[]',
  idempotency_key text not null,
  hold_tx_id bigint,
  -- The ledger transaction that released or settled the hold (null until done).
  final_tx_id bigint,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, user_id, idempotency_key)
);
create index withdrawals_user on withdrawals (tenant_id, user_id, created_at desc);
create index withdrawals_status on withdrawals (tenant_id, status, created_at desc);

-- Transfers between a main account and its sub-accounts (the engine's ledger has the postings).
create table transfers (
  id text primary key,
  tenant_id text not null references tenants (id),
  user_id text not null references users (id),
  transfer_type text not null,
  from_account bigint not null,
  to_account bigint not null,
  amount bigint not null check (amount > 0),
  currency text not null,
  tx_id bigint,
  idempotency_key text not null,
  created_at timestamptz not null default now(),
  unique (tenant_id, user_id, idempotency_key)
);
create index transfers_user on transfers (tenant_id, user_id, created_at desc);

-- Coins: the balance row is what spending checks and counts atomically; entries are the history.
create table coin_balances (
  tenant_id text not null references tenants (id),
  user_id text not null references users (id),
  balance bigint not null default 0 check (balance >= 0),
  primary key (tenant_id, user_id)
);
create table coin_entries (
  id text primary key,
  tenant_id text not null references tenants (id),
  user_id text not null references users (id),
  coins bigint not null,
  reason text not null,
  -- What earned or spent them (a deposit id, an idempotency key): one grant per reason and ref.
  ref text not null,
  account_id bigint,
  tx_id bigint,
  created_at timestamptz not null default now(),
  unique (tenant_id, user_id, reason, ref)
);
create index coin_entries_user on coin_entries (tenant_id, user_id, created_at desc);

-- Every webhook event applied once: deliveries of one event (duplicates, retries) share its id.
create table webhook_events (
  provider text not null,
  event_id text not null,
  event_type text not null,
  payload jsonb not null,
  outcome text not null,
  received_at timestamptz not null default now(),
  primary key (provider, event_id)
);

-- Refused deliveries (forged, stale, malformed), kept for the security review.
create table webhook_refusals (
  id text primary key,
  provider text not null,
  reason text not null,
  ip text,
  body_excerpt text not null,
  received_at timestamptz not null default now()
);
create index webhook_refusals_time on webhook_refusals (received_at desc);

-- Money that reached a provider without a matching deposit (bank reference or chain address).
create table unmatched_payments (
  id text primary key,
  tenant_id text references tenants (id),
  provider text not null,
  method text not null,
  amount bigint not null,
  currency text not null,
  reference text not null,
  provider_ref text not null,
  status text not null default 'unmatched' check (status in ('unmatched', 'matched', 'returned')),
  suggested_deposit_id text,
  deposit_id text,
  decided_by text,
  reason text,
  received_at timestamptz not null default now(),
  unique (provider, provider_ref)
);
create index unmatched_status on unmatched_payments (status, received_at desc);
