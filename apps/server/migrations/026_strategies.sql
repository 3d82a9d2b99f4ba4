-- Issue 19: strategy bots' engine state. A grid or martingale bot runs on a strategy sub-account
-- inside the trading engine (the single writer); every order and position it makes carries its
-- strategy id, and the bot itself (parameters, state, levels and cells, the martingale round) is
-- written by the same group commit as those orders, so a restart restores it exactly. Times are
-- engine times (ms since the epoch), like the deals'.

-- A bot's order or position: no foreign key (a stopped and closed bot's row stays; the positions,
-- orders, deals and order history keep the id for the history and the terminal's marks).
alter table positions add column strategy_id bigint;
alter table pending_orders add column strategy_id bigint;
alter table deals add column strategy_id bigint;
alter table order_history add column strategy_id bigint;

-- One row per bot, upserted as the engine changes it. Waiting, running and "stopped with position
-- open" bots are loaded when the engine starts; a "stopped and closed" one is history.
create table strategies (
  id bigint primary key,
  account_id bigint not null references trading_accounts (id),
  kind text not null check (kind in ('grid', 'martingale')),
  symbol text not null,
  state text not null check (state in ('waiting', 'running', 'stopped_open', 'stopped_closed')),
  stop_reason text,
  -- The bot's parameters as stored by the engine (integers: points, hundredths of a lot, basis points).
  params jsonb not null,
  -- What it holds and has done: levels and cells (grid), the round (martingale), investment base,
  -- realised profit, fees, counters.
  runtime jsonb not null,
  realized_profit bigint not null,
  created_at bigint not null,
  updated_at bigint not null,
  check ((state in ('stopped_open', 'stopped_closed')) = (stop_reason is not null))
);
create index strategies_account on strategies (account_id);
create index strategies_live on strategies (id) where state <> 'stopped_closed';

-- What each bot did and why (its detail page's log).
create table strategy_logs (
  id bigserial primary key,
  strategy_id bigint not null,
  account_id bigint not null,
  action text not null,
  reason text,
  level integer,
  price bigint,
  volume integer,
  ticket bigint,
  profit bigint,
  created_at bigint not null
);
create index strategy_logs_strategy on strategy_logs (strategy_id, id);
