-- Issue 21: a trader's chart drawings, one row per trader and symbol. The list (at most 100
-- drawings, each a kind, its points as ms-since-epoch times and prices, and text for text drawings)
-- is checked by the route's schema and replaced as a whole on each save.
create table chart_drawings (
  tenant_id text not null references tenants (id),
  user_id text not null references users (id),
  symbol text not null check (symbol ~ '^[A-Z0-9]{3,12}$'),
  drawings jsonb not null default '[]',
  updated_at timestamptz not null default now(),
  primary key (tenant_id, user_id, symbol)
);
