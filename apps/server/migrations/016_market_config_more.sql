-- Leverage tiers of an instrument: [{ "upToLots": "5", "maxLeverage": 100 }, ...] ascending in size.
-- (A group's tiers live in instrument_group_terms.overrides under "leverageTiers".)
alter table instruments add column leverage_tiers jsonb not null default '[]';

-- The history page filters by symbol and by group.
create index market_config_history_symbol on market_config_history (tenant_id, symbol, created_at desc);
create index market_config_history_group on market_config_history (tenant_id, group_id, created_at desc);
