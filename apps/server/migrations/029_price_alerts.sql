-- Issue 21, item 18: price alerts. A trader's alert watches one symbol's bid: above or below a level,
-- or a percentage move up or down from the bid when it was made. Prices are integer points of the
-- symbol (`digits` says where the decimal point goes), the move in hundredths of a percent.
-- The server keeps the active ones in memory, per symbol and sorted by the level that fires them;
-- a fired alert is marked here by one conditional update, so each firing is delivered once.
create table price_alerts (
  id text primary key,
  tenant_id text not null references tenants (id),
  user_id text not null references users (id),
  symbol text not null check (symbol ~ '^[A-Z0-9._]{2,20}$'),
  condition text not null check (condition in ('above', 'below', 'moveUp', 'moveDown')),
  digits smallint not null check (digits between 0 and 8),
  -- The level of above/below; null for moves.
  price bigint check (price > 0),
  -- The move of moveUp/moveDown in hundredths of a percent (150 = 1.5 %); null for levels.
  percent_bp integer check (percent_bp between 1 and 10000),
  -- The bid the move is measured from (when made or re-armed); null for levels.
  base_price bigint,
  -- The bid at which it fires: the level, or the base moved by the percentage.
  trigger_price bigint not null check (trigger_price > 0),
  note text not null default '' check (char_length(note) <= 140),
  one_shot boolean not null default true,
  expires_at timestamptz,
  state text not null default 'active' check (state in ('active', 'fired', 'expired')),
  -- A repeating alert that fired waits for the price to cross back before it can fire again.
  armed boolean not null default true,
  fired_at timestamptz,
  fired_price bigint,
  fire_count integer not null default 0,
  -- The trader's language when the alert was made: its email is written in it.
  locale text not null default 'en',
  idempotency_key text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((condition in ('above', 'below')) = (price is not null and percent_bp is null and base_price is null)),
  unique (tenant_id, user_id, idempotency_key)
);
create index price_alerts_active on price_alerts (symbol) where state = 'active';
create index price_alerts_owner on price_alerts (tenant_id, user_id, state);

-- One row per trader who has made an alert: creating and re-arming lock it, so the count of
-- active alerts and the limit are checked in one step however many requests arrive at once.
create table price_alert_owners (
  tenant_id text not null references tenants (id),
  user_id text not null references users (id),
  primary key (tenant_id, user_id)
);
