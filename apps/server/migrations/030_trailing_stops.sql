-- Issue 21, item 15: trailing stops. A position may carry a trailing distance in points of its symbol
-- (null: none); the engine moves the position's stop_loss after the price on ticks, and each group
-- commit writes the latest stop_loss of every position it moved (one row per position per group).
alter table positions add column trailing_stop integer check (trailing_stop > 0);
