-- Risk and liquidity: A-book / B-book routing rules per broker, and the hedge orders sent to the
-- liquidity provider for A-book positions.

create table risk_book_rules (
  id text primary key,
  tenant_id text not null references tenants (id) on delete cascade,
  -- Lower numbers are tried first; the first matching enabled rule decides the book.
  priority integer not null check (priority between 1 and 10000),
  kind text not null check (kind in ('group', 'customer', 'profitability')),
  group_id text references account_groups (id) on delete cascade,
  user_id text references users (id) on delete cascade,
  -- Profitability: realized profit (USD) over the window at least this much ...
  min_realized_profit numeric(16, 2),
  -- ... and/or a win rate (basis points of deals closed in profit) at least this much,
  min_win_rate_bp integer check (min_win_rate_bp between 0 and 10000),
  -- ... with at least this many closed deals in the window.
  min_trades integer not null default 0 check (min_trades >= 0),
  window_days integer not null default 30 check (window_days between 1 and 365),
  book text not null check (book in ('A', 'B')),
  enabled boolean not null default true,
  note text not null default '',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (kind <> 'group' or group_id is not null),
  check (kind <> 'customer' or user_id is not null),
  check (kind <> 'profitability' or min_realized_profit is not null or min_win_rate_bp is not null)
);
create index risk_book_rules_tenant on risk_book_rules (tenant_id, priority);

-- One row per hedge order (an A-book position's opening or a close of some of its volume).
create table lp_orders (
  id text primary key,
  tenant_id text not null references tenants (id) on delete cascade,
  account_id bigint not null,
  position_id bigint not null,
  user_id text,
  purpose text not null check (purpose in ('open', 'close')),
  symbol text not null,
  side text not null check (side in ('buy', 'sell')),
  -- Hundredths of a lot, like the engine.
  volume integer not null check (volume > 0),
  -- Prices in points of the symbol (integers); the client's fill and the provider's fill.
  requested_price bigint,
  fill_price bigint,
  status text not null check (status in ('pending', 'filled', 'failed')),
  attempts integer not null default 0,
  latency_ms integer,
  error text,
  -- Every attempt failed: shown to the dealer until it is retried successfully.
  flagged boolean not null default false,
  provider text not null,
  provider_order_id text,
  rule_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index lp_orders_tenant_time on lp_orders (tenant_id, created_at desc);
create index lp_orders_position on lp_orders (position_id);
create index lp_orders_flagged on lp_orders (tenant_id) where flagged;
