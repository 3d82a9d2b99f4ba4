-- Tenants (brokers), their host names, identities, sessions, page views and the audit trail.
create table tenants (
  id text primary key,
  slug text not null unique,
  name text not null,
  status text not null default 'active' check (status in ('active', 'suspended')),
  is_default boolean not null default false,
  created_at timestamptz not null default now()
);
create unique index tenants_one_default on tenants (is_default) where is_default;

create table tenant_domains (
  host text primary key,
  tenant_id text not null references tenants (id) on delete cascade
);

create table users (
  id text primary key,
  tenant_id text not null references tenants (id),
  email text not null,
  password_hash text not null,
  display_name text not null,
  country_code text,
  status text not null default 'active' check (status in ('active', 'disabled')),
  failed_attempts integer not null default 0,
  locked_until timestamptz,
  created_at timestamptz not null default now(),
  unique (tenant_id, email)
);

create table staff (
  id text primary key,
  tenant_id text not null references tenants (id),
  username text not null,
  password_hash text not null,
  display_name text not null,
  status text not null default 'active' check (status in ('active', 'disabled')),
  failed_attempts integer not null default 0,
  locked_until timestamptz,
  created_at timestamptz not null default now(),
  unique (tenant_id, username)
);

create table roles (
  id text primary key,
  tenant_id text not null references tenants (id),
  name text not null,
  parent_id text references roles (id),
  permissions text[] not null default '{}',
  created_at timestamptz not null default now(),
  unique (tenant_id, name)
);

create table staff_roles (
  staff_id text not null references staff (id) on delete cascade,
  role_id text not null references roles (id) on delete cascade,
  primary key (staff_id, role_id)
);

create table sessions (
  token_hash text primary key,
  tenant_id text not null references tenants (id),
  subject_kind text not null check (subject_kind in ('user', 'staff')),
  subject_id text not null,
  csrf_token text not null,
  user_agent text,
  ip text,
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  idle_expires_at timestamptz not null,
  absolute_expires_at timestamptz not null,
  revoked_at timestamptz
);
create index sessions_subject on sessions (subject_kind, subject_id);

create table page_views (
  id bigserial primary key,
  tenant_id text not null,
  path text not null,
  lang text,
  device text not null,
  status integer not null,
  user_agent text,
  created_at timestamptz not null default now()
);
create index page_views_created on page_views (tenant_id, created_at);

create table audit_events (
  id bigserial primary key,
  tenant_id text not null,
  actor_kind text not null,
  actor_id text,
  action text not null,
  target text,
  ip text,
  details jsonb not null default '{}',
  created_at timestamptz not null default now()
);
create index audit_events_tenant on audit_events (tenant_id, created_at);
