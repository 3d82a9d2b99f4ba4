-- Issue 21 item 19: a trader's terminal chart layout, one row per trader. The layout (kind 1, 2 or 4,
-- up to four panes with their symbol and timeframe, the active pane) is checked by the route's schema
-- and the use case (the broker's symbols only), and replaced as a whole on each save.
create table chart_layouts (
  tenant_id text not null references tenants (id),
  user_id text not null references users (id),
  layout jsonb not null,
  updated_at timestamptz not null default now(),
  primary key (tenant_id, user_id)
);
