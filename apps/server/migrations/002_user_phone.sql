-- Traders may sign in with a phone number (E.164), unique per broker.
alter table users add column phone text;
create unique index users_tenant_phone on users (tenant_id, phone) where phone is not null;
