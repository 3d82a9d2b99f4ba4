-- Trading (issue 5): accounts, open positions and pending orders (the engine's durable state),
-- closed deals and finished orders (history), the double-entry ledger and idempotency results.
-- The next ticket and transaction ids are the stored maxima plus one. The engine is the single
-- writer of every table here.

create sequence trading_account_ids start with 10000001;

create table trading_accounts (
  id bigint primary key,
  tenant_id text not null references tenants (id),
  user_id text not null references users (id),
  account_type smallint not null check (account_type between 1 and 5),
  trade_type smallint not null check (trade_type in (1, 2)),
  currency text not null,
  leverage integer not null check (leverage between 1 and 3000),
  balance bigint not null,
  follow_equity bigint not null default 0,
  strategy_equity bigint not null default 0,
  init_money bigint not null default 0,
  total_in bigint not null default 0,
  total_out bigint not null default 0,
  margin_call_bp integer not null,
  stop_out_bp integer not null,
  margin_call boolean not null default false,
  negative_balance_protection boolean not null,
  restrictions jsonb not null default '{}',
  closed boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index trading_accounts_user on trading_accounts (tenant_id, user_id);

create table positions (
  id bigint primary key,
  account_id bigint not null references trading_accounts (id),
  symbol text not null,
  side text not null check (side in ('buy', 'sell')),
  volume integer not null check (volume > 0),
  open_price bigint not null,
  open_time bigint not null,
  take_profit bigint,
  stop_loss bigint,
  margin bigint not null,
  swap bigint not null default 0,
  commission bigint not null default 0
);
create index positions_account on positions (account_id);

create table pending_orders (
  id bigint primary key,
  account_id bigint not null references trading_accounts (id),
  symbol text not null,
  order_type text not null,
  volume integer not null check (volume > 0),
  price bigint not null,
  limit_price bigint,
  activated boolean not null default false,
  take_profit bigint,
  stop_loss bigint,
  placed_time bigint not null
);
create index pending_orders_account on pending_orders (account_id);

-- One row per close (a partial close is a deal of its own).
create table deals (
  id bigserial primary key,
  position_id bigint not null,
  account_id bigint not null references trading_accounts (id),
  symbol text not null,
  side text not null,
  volume integer not null,
  open_price bigint not null,
  close_price bigint not null,
  open_time bigint not null,
  close_time bigint not null,
  profit bigint not null,
  swap bigint not null default 0,
  commission bigint not null default 0,
  reason smallint not null check (reason between 1 and 7)
);
create index deals_account_time on deals (account_id, close_time desc);

create table order_history (
  id bigint primary key,
  account_id bigint not null references trading_accounts (id),
  symbol text not null,
  order_type text not null,
  volume integer not null,
  price bigint not null,
  limit_price bigint,
  take_profit bigint,
  stop_loss bigint,
  placed_time bigint not null,
  done_time bigint not null,
  status text not null check (status in ('filled', 'cancelled')),
  cancel_reason text,
  position_id bigint,
  fill_price bigint
);
create index order_history_account_time on order_history (account_id, done_time desc);

-- Double entry: every transaction's postings sum to zero (checked by the engine and the tests).
create table ledger_entries (
  id bigserial primary key,
  tx_id bigint not null,
  account_id bigint not null references trading_accounts (id),
  ledger_account text not null,
  amount bigint not null,
  kind text not null,
  currency text not null,
  position_id bigint,
  balance_after bigint not null,
  created_at bigint not null
);
create index ledger_entries_tx on ledger_entries (tx_id);
create index ledger_entries_account on ledger_entries (account_id, id);

create table engine_idempotency (
  key text primary key,
  fingerprint text not null,
  result jsonb not null,
  created_at timestamptz not null default now()
);

