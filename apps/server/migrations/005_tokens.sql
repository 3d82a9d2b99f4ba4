-- Kong-compatible OAuth2 (anonymous bearer tokens) and the per-session key of the trade-token request.
create table oauth_clients (
  tenant_id text not null references tenants (id) on delete cascade,
  client_id text not null,
  name text not null,
  client_secret_hash text not null,
  provision_key_hash text not null,
  redirect_uri text not null,
  created_at timestamptz not null default now(),
  primary key (tenant_id, client_id)
);

create table oauth_codes (
  code_hash text primary key,
  tenant_id text not null,
  client_id text not null,
  authenticated_userid text not null,
  scope text not null,
  expires_at timestamptz not null,
  used_at timestamptz
);

create table oauth_tokens (
  token_hash text primary key,
  kind text not null check (kind in ('access', 'refresh')),
  tenant_id text not null,
  client_id text not null,
  authenticated_userid text not null,
  scope text not null,
  expires_at timestamptz not null,
  revoked_at timestamptz,
  created_at timestamptz not null default now()
);
create index oauth_tokens_expiry on oauth_tokens (expires_at);

alter table sessions add column cipher_key text;
