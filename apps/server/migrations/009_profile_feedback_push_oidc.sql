-- Profile fields (spec 3 Simple user), uploaded files, feedback, Web Push subscriptions and
-- third-party (OpenID Connect) identities.
alter table users add column nick text;
alter table users add column avatar_file_id text;
alter table users add column sex smallint not null default 0 check (sex in (0, 1, 2));
alter table users add column profile text not null default '';
alter table users add column contacts jsonb not null default '{}';

-- Files are kept on disk under DATA_DIR/files/<id>; this row is their identity and checked type.
create table stored_files (
  id text primary key,
  tenant_id text not null references tenants (id),
  user_id text not null references users (id),
  purpose text not null check (purpose in ('avatar', 'feedback')),
  mime text not null check (mime in ('image/jpeg', 'image/png', 'video/mp4', 'video/x-msvideo')),
  size_bytes bigint not null,
  sha256 text not null,
  created_at timestamptz not null default now()
);
create index stored_files_owner on stored_files (tenant_id, user_id);

create table feedback (
  id text primary key,
  tenant_id text not null references tenants (id),
  user_id text not null references users (id),
  body text not null check (char_length(body) <= 500),
  contacts jsonb not null,
  attachments jsonb not null default '[]',
  status text not null default 'new' check (status in ('new', 'read', 'closed')),
  locale text,
  user_agent text,
  idempotency_key text not null,
  created_at timestamptz not null default now(),
  unique (tenant_id, user_id, idempotency_key)
);
create index feedback_tenant on feedback (tenant_id, created_at desc);

create table push_subscriptions (
  id text primary key,
  tenant_id text not null references tenants (id),
  user_id text not null references users (id),
  endpoint text not null,
  p256dh text not null,
  auth text not null,
  user_agent text,
  created_at timestamptz not null default now(),
  unique (tenant_id, endpoint)
);
create index push_subscriptions_user on push_subscriptions (tenant_id, user_id);

-- OpenID Connect providers configured per broker.
create table oidc_providers (
  id text primary key,
  tenant_id text not null references tenants (id),
  slug text not null check (slug ~ '^[a-z0-9-]{2,32}$'),
  name text not null,
  issuer text not null,
  client_id text not null,
  client_secret text not null,
  scopes text not null default 'openid email profile',
  enabled boolean not null default true,
  created_at timestamptz not null default now(),
  unique (tenant_id, slug)
);

-- One sign-in or bind attempt: state, nonce and PKCE verifier, valid 10 minutes, used once.
create table oidc_states (
  state_hash text primary key,
  tenant_id text not null references tenants (id),
  provider_id text not null references oidc_providers (id) on delete cascade,
  code_verifier text not null,
  nonce text not null,
  mode text not null check (mode in ('login', 'bind')),
  user_id text,
  lang text not null,
  redirect text not null,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);

create table user_identities (
  provider_id text not null references oidc_providers (id) on delete cascade,
  subject text not null,
  tenant_id text not null references tenants (id),
  user_id text not null references users (id),
  email text,
  name text,
  created_at timestamptz not null default now(),
  primary key (provider_id, subject),
  unique (user_id, provider_id)
);

-- Binding a new email or phone to a signed-in trader uses its own code purpose.
alter table verification_codes drop constraint verification_codes_purpose_check;
alter table verification_codes add constraint verification_codes_purpose_check
  check (purpose in ('register', 'reset', 'login', 'bind'));

-- Session hand-off (spec 7.2 save_token / trans_token): a signed-in device parks a one-time token
-- bound to its fingerprint; the same device, on another origin of the broker, trades it for a session.
create table session_handoffs (
  token_hash text primary key,
  tenant_id text not null references tenants (id),
  user_id text not null references users (id),
  finger_key text not null,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
