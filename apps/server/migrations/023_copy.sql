-- Issue 18: copy trading's engine state. A follower's copy sub-account copies a leader's main
-- account; the trading engine (the single writer) keeps the relations, links each copy to the
-- leader's position it follows, and records every leader trade a follower did not copy. Times are
-- engine times (ms since the epoch), like the deals'.

-- A copy's leader position: no foreign key, since a closed position's row is deleted. The deal that
-- closes a copy keeps it, for the follower's history and the parity report.
alter table positions add column parent_ticket bigint;
alter table deals add column parent_ticket bigint;

-- A leader's main account that takes no new followers for now (those following it carry on).
alter table trading_accounts add column followers_paused boolean not null default false;

-- One relation per copy account: it copies one leader. Running and paused relations are loaded when
-- the engine starts; a stopped one stays as it ended (with its reason) until the copy account starts
-- a new one.
create table copy_relations (
  account_id bigint primary key references trading_accounts (id),
  leader_account_id bigint not null references trading_accounts (id),
  mode text not null check (mode in ('fixed_lot', 'fixed_margin', 'ratio', 'equity')),
  -- fixed_lot: hundredths of a lot; fixed_margin: minor units; ratio: basis points; equity: 0.
  mode_value bigint not null,
  max_volume integer,
  max_positions integer,
  max_slippage_points integer,
  stop_loss_bp integer,
  take_profit_bp integer,
  copy_stops boolean not null,
  copy_existing boolean not null,
  status text not null check (status in ('active', 'paused', 'stopped')),
  stop_reason text,
  created_at bigint not null,
  updated_at bigint not null,
  check ((status = 'stopped') = (stop_reason is not null))
);

-- A leader's action a follower did not copy, with the reason (never silently).
create table copy_skips (
  id bigserial primary key,
  account_id bigint not null references trading_accounts (id),
  leader_account_id bigint not null,
  leader_position_id bigint not null,
  action text not null check (action in ('open', 'close', 'modify')),
  reason text not null,
  -- Hundredths of a lot the copy was sized to, when it got that far.
  volume integer,
  created_at bigint not null
);
