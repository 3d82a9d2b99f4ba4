-- Issue 18: copy trading's social side. Leaders (applications, the broker's review, their terms),
-- the broker's copy rules, and the fee settlements; the engine's relations gain the fee terms
-- locked at the start and the high-water mark, and leader accounts a suspension flag.

alter table copy_relations add column fee_bp integer not null default 0 check (fee_bp between 0 and 3000);
-- The copy's profit before fees (minor units) on which the fee has been settled, and the fees paid.
alter table copy_relations add column hwm bigint not null default 0;
alter table copy_relations add column fees_paid bigint not null default 0;
create index copy_relations_leader on copy_relations (leader_account_id) where status <> 'stopped';
create index copy_skips_account on copy_skips (account_id, leader_position_id);
create index deals_parent on deals (parent_ticket) where parent_ticket is not null;

-- Suspended by the broker: no new followers, nothing new copied (the engine's flag).
alter table trading_accounts add column leader_suspended boolean not null default false;

-- One row per leader account: the application, the broker's decision and the leader's terms.
create table copy_leaders (
  account_id bigint primary key references trading_accounts (id),
  tenant_id text not null references tenants (id),
  user_id text not null references users (id),
  status text not null check (status in ('pending', 'approved', 'rejected', 'suspended')),
  -- The reviewer's reason of a rejection or a suspension (spec 5: at most 20 characters).
  reason text,
  -- Performance fee for new followers, basis points (0 to 3000 = 30 %).
  fee_bp integer not null check (fee_bp between 0 and 3000),
  -- The least a follower may allocate, minor units of the leader's currency.
  min_copy_amount bigint not null check (min_copy_amount >= 0),
  positions_delay_minutes integer not null default 0 check (positions_delay_minutes between 0 and 1440),
  bio text not null default '',
  applied_at timestamptz not null default now(),
  reviewed_at timestamptz,
  reviewed_by text
);
create index copy_leaders_tenant on copy_leaders (tenant_id, status);
create index copy_leaders_user on copy_leaders (tenant_id, user_id);

-- The broker's copy rules (one row per tenant; defaults when absent).
create table copy_settings (
  tenant_id text primary key references tenants (id),
  auto_approve boolean not null,
  min_trading_days integer not null,
  -- Minor units of the applying account's currency.
  min_equity bigint not null,
  max_fee_bp integer not null check (max_fee_bp between 0 and 3000),
  updated_by text,
  updated_at timestamptz not null default now()
);

-- Each fee settlement of a copy (weekly, and when it stops), one per copy and period.
create table copy_fee_settlements (
  id text primary key,
  tenant_id text not null references tenants (id),
  copy_account_id bigint not null references trading_accounts (id),
  leader_account_id bigint not null references trading_accounts (id),
  follower_user_id text not null,
  leader_user_id text not null,
  kind text not null check (kind in ('weekly', 'stop')),
  -- The week's end (ISO time) or `stop:<relation start>`: a period settles once.
  period_key text not null,
  profit bigint not null,
  mark_before bigint not null,
  mark_after bigint not null,
  fee bigint not null,
  currency text not null,
  credited bigint not null,
  leader_currency text not null,
  ledger_tx_id bigint,
  created_at timestamptz not null default now(),
  unique (copy_account_id, period_key)
);
create index copy_fee_settlements_leader on copy_fee_settlements (tenant_id, leader_account_id, created_at desc);
