-- Per-trader settings (spec 3): notifications, kline colour, display switches, theme.
alter table users add column settings jsonb not null default '{}';
