-- Issue 15, security hardening.
-- The authenticator time step a trader or staff member last signed in (or confirmed) with: a code is
-- single use, so the same code, or one of an earlier step, is refused within its 30-second window.
alter table users add column totp_last_step bigint;
alter table staff add column totp_last_step bigint;

-- The order-signature nonce (session-scoped) of each accepted order, committed with the order, so a
-- restart reloads the nonces still inside their window and a signed order cannot be replayed.
alter table engine_idempotency add column nonce text;
create index engine_idempotency_recent_nonces on engine_idempotency (created_at) where nonce is not null;

-- Expired authorization codes are deleted as new ones are made.
create index oauth_codes_expires on oauth_codes (expires_at);
