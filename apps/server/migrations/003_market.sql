-- Instruments per broker, candles built from the feed's ticks, and ticks the off-market filter dropped.
create table instruments (
  tenant_id text not null references tenants (id) on delete cascade,
  symbol text not null,
  category text not null check (category in ('forex', 'metals', 'energy', 'indices', 'crypto')),
  base text not null,
  quote text not null,
  digits smallint not null check (digits between 0 and 8),
  contract_size numeric not null check (contract_size > 0),
  min_volume numeric not null check (min_volume > 0),
  volume_step numeric not null check (volume_step > 0),
  max_volume numeric not null check (max_volume >= min_volume),
  default_leverage integer not null check (default_leverage between 1 and 2000),
  margin_currency text not null,
  profit_currency text not null,
  sessions jsonb not null,
  swap_long numeric not null,
  swap_short numeric not null,
  enabled boolean not null default true,
  close_only boolean not null default false,
  short_allowed boolean not null default true,
  hot boolean not null default false,
  sort integer not null default 0,
  primary key (tenant_id, symbol)
);

create table candles (
  symbol text not null,
  timeframe text not null,
  open_time bigint not null,
  open bigint not null,
  high bigint not null,
  low bigint not null,
  close bigint not null,
  volume bigint not null,
  primary key (symbol, timeframe, open_time)
);

create table filtered_ticks (
  id bigserial primary key,
  symbol text not null,
  tick_time bigint not null,
  bid bigint not null,
  ask bigint not null,
  reference numeric not null,
  deviation numeric not null,
  created_at timestamptz not null default now()
);
