-- Open positions and pending orders are read only when the engine starts (all of them, by id) and
-- written by id; every account's positions and orders are then served from memory. Their indexes
-- by account were never used by a query, and cost one more index entry in every order's commit.
-- The foreign keys stay: accounts are never deleted and their ids never change, so no check ever
-- needs to look up positions or orders by account.
drop index positions_account;
drop index pending_orders_account;
