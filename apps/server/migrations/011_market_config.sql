-- Broker market configuration: account groups with their risk levels, the per-instrument trading
-- terms a broker can change at runtime, per-group overrides, and the history of every change.
create table account_groups (
  id text primary key,
  tenant_id text not null references tenants (id) on delete cascade,
  name text not null,
  description text not null default '',
  is_default boolean not null default false,
  -- Margin level (basis points of margin) under which new positions are refused, and at which
  -- positions are force-closed.
  margin_call_bp integer not null default 10000 check (margin_call_bp between 1 and 100000),
  stop_out_bp integer not null default 5000 check (stop_out_bp between 0 and 100000),
  negative_balance_protection boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, name),
  check (stop_out_bp < margin_call_bp)
);
create unique index account_groups_one_default on account_groups (tenant_id) where is_default;

alter table trading_accounts add column group_id text references account_groups (id);

-- Terms the engine did not take from the broker's catalogue before.
alter table instruments add column markup_points integer not null default 0 check (markup_points between 0 and 100000);
alter table instruments add column stops_level_points integer not null default 0 check (stops_level_points between 0 and 1000000);
alter table instruments add column commission_per_lot numeric not null default 0 check (commission_per_lot >= 0);
alter table instruments add column max_leverage integer check (max_leverage between 1 and 3000);
alter table instruments add column updated_at timestamptz not null default now();

-- A group's overrides of one instrument's terms (camelCase keys of TGroupOverrides; absent = the
-- instrument's value).
create table instrument_group_terms (
  tenant_id text not null references tenants (id) on delete cascade,
  group_id text not null references account_groups (id) on delete cascade,
  symbol text not null,
  overrides jsonb not null default '{}',
  updated_at timestamptz not null default now(),
  primary key (group_id, symbol),
  foreign key (tenant_id, symbol) references instruments (tenant_id, symbol) on delete cascade
);

-- Every change of an instrument's terms, a group's overrides or a group's levels.
create table market_config_history (
  id bigserial primary key,
  tenant_id text not null references tenants (id) on delete cascade,
  staff_id text,
  scope text not null check (scope in ('instrument', 'group_terms', 'group')),
  symbol text,
  group_id text,
  before jsonb,
  after jsonb,
  created_at timestamptz not null default now()
);
create index market_config_history_tenant on market_config_history (tenant_id, created_at desc);
