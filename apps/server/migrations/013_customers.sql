-- Customers in the back office: the KYC state of each trader (driven by the KYC review later; the
-- search filters on it now), staff notes on a customer, balance adjustments with their second-staff
-- approval, and each broker's approval threshold.
alter table users add column kyc_status text not null default 'none'
  check (kyc_status in ('none', 'pending', 'approved', 'rejected'));
create index users_tenant_created on users (tenant_id, created_at desc);
create index users_tenant_kyc on users (tenant_id, kyc_status);

create table customer_notes (
  id text primary key,
  tenant_id text not null references tenants (id),
  user_id text not null references users (id),
  staff_id text not null references staff (id),
  body text not null check (char_length(body) between 1 and 1000),
  created_at timestamptz not null default now()
);
create index customer_notes_user on customer_notes (tenant_id, user_id, created_at desc);

-- One staff adjustment of a trading account's balance. Small ones are applied at once ('applied');
-- above the broker's threshold they wait ('pending') for another staff member, who approves
-- ('approving' while the engine writes it, then 'approved') or rejects ('rejected') them. The engine
-- command's idempotency key is the row id, so an adjustment reaches the ledger once at most.
create table balance_adjustments (
  id text primary key,
  tenant_id text not null references tenants (id),
  user_id text not null references users (id),
  account_id bigint not null references trading_accounts (id),
  -- Signed, in minor units of the account currency.
  amount bigint not null check (amount <> 0),
  currency text not null,
  reason text not null check (char_length(reason) between 3 and 200),
  status text not null check (status in ('pending', 'approving', 'approved', 'rejected', 'applied')),
  idempotency_key text not null,
  requested_by text not null references staff (id),
  requested_at timestamptz not null default now(),
  decided_by text references staff (id),
  decided_at timestamptz,
  reject_reason text check (char_length(reject_reason) <= 20),
  ledger_tx_id bigint,
  unique (tenant_id, idempotency_key)
);
create index balance_adjustments_status on balance_adjustments (tenant_id, status, requested_at desc);
create index balance_adjustments_user on balance_adjustments (tenant_id, user_id, requested_at desc);

-- Per broker: adjustments above this many US-dollar cents (converted to the account currency) need
-- a second staff member's approval.
create table customer_settings (
  tenant_id text primary key references tenants (id),
  approval_threshold_usd_minor bigint not null default 100000 check (approval_threshold_usd_minor >= 0),
  updated_by text references staff (id),
  updated_at timestamptz not null default now()
);
