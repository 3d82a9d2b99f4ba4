-- Back office, audit area (docs/backoffice/audit.md): the operation history becomes an append-only
-- hash chain kept by the database itself, statistics get the indexes they read by, and two new
-- modules get their tables: app versions per platform, and subscription packages per broker.

-- 1. Hash chain ------------------------------------------------------------------------------------
alter table audit_events
  add column seq bigint,
  add column prev_hash text,
  add column hash text;

-- The hash of one entry: SHA-256 (lower-case hex) of the UTF-8 text of this jsonb array, as
-- PostgreSQL prints it: [1, tenant_id, seq, created_at, actor_kind, actor_id, action, target, ip,
-- details, prev_hash]. 1 is the format version; created_at is UTC with microseconds
-- (2026-01-31T08:15:00.123456Z); missing values are null. The first entry of a broker has
-- prev_hash = 64 zeros.
create function audit_event_hash(
  p_tenant_id text,
  p_seq bigint,
  p_created_at timestamptz,
  p_actor_kind text,
  p_actor_id text,
  p_action text,
  p_target text,
  p_ip text,
  p_details jsonb,
  p_prev_hash text
) returns text language sql stable as $$
  select encode(sha256(convert_to(jsonb_build_array(
    1,
    p_tenant_id,
    p_seq,
    to_char(p_created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    p_actor_kind,
    p_actor_id,
    p_action,
    p_target,
    p_ip,
    p_details,
    p_prev_hash
  )::text, 'UTF8')), 'hex')
$$;

-- Entries written before this migration are chained once, per broker in the order they were written.
do $$
declare
  entry record;
  chain_tenant text := null;
  chain_seq bigint := 0;
  chain_hash text;
begin
  for entry in select * from audit_events order by tenant_id, id loop
    if chain_tenant is distinct from entry.tenant_id then
      chain_tenant := entry.tenant_id;
      chain_seq := 0;
      chain_hash := repeat('0', 64);
    end if;
    chain_seq := chain_seq + 1;
    update audit_events
      set seq = chain_seq,
        prev_hash = chain_hash,
        hash = audit_event_hash(entry.tenant_id, chain_seq, entry.created_at, entry.actor_kind,
          entry.actor_id, entry.action, entry.target, entry.ip, entry.details, chain_hash)
      where id = entry.id
      returning hash into chain_hash;
  end loop;
end
$$;

alter table audit_events
  alter column seq set not null,
  alter column prev_hash set not null,
  alter column hash set not null;
create unique index audit_events_chain on audit_events (tenant_id, seq);
create index audit_events_action on audit_events (tenant_id, action text_pattern_ops);
create index audit_events_actor on audit_events (tenant_id, actor_id);

-- Every insert, whoever makes it, is appended to its broker's chain: a transaction-scoped advisory
-- lock per broker makes concurrent appends wait for each other, so the head read here is the real
-- one (each statement of a volatile function sees what committed before it). Values given for seq,
-- prev_hash or hash are overwritten.
create function audit_events_append() returns trigger language plpgsql as $$
declare
  head_seq bigint;
  head_hash text;
begin
  perform pg_advisory_xact_lock(1096107348, hashtext(new.tenant_id));
  select seq, hash into head_seq, head_hash
    from audit_events where tenant_id = new.tenant_id order by seq desc limit 1;
  new.details := coalesce(new.details, '{}'::jsonb);
  new.created_at := coalesce(new.created_at, now());
  new.seq := coalesce(head_seq, 0) + 1;
  new.prev_hash := coalesce(head_hash, repeat('0', 64));
  new.hash := audit_event_hash(new.tenant_id, new.seq, new.created_at, new.actor_kind, new.actor_id,
    new.action, new.target, new.ip, new.details, new.prev_hash);
  return new;
end
$$;
create trigger audit_events_append before insert on audit_events
  for each row execute function audit_events_append();

-- Append-only: the database refuses to change or remove an entry, for everyone.
create function audit_events_refuse_change() returns trigger language plpgsql as $$
begin
  raise exception 'audit_events is append-only: % is refused', tg_op
    using errcode = 'insufficient_privilege';
end
$$;
create trigger audit_events_no_change before update or delete on audit_events
  for each row execute function audit_events_refuse_change();
create trigger audit_events_no_truncate before truncate on audit_events
  for each statement execute function audit_events_refuse_change();

-- 2. Statistics: the day-range reads ----------------------------------------------------------------
-- (registrations read users by (tenant_id, created_at): migration 013 has that index.)
create index stats_deals_close_time on deals (close_time);
create index stats_ledger_funding on ledger_entries (created_at) where kind in ('deposit', 'withdrawal');

-- 3. App versions per platform ---------------------------------------------------------------------
create table app_versions (
  id text primary key,
  tenant_id text not null references tenants (id),
  platform text not null check (platform in ('ios', 'android', 'windows', 'macos', 'web')),
  version text not null,
  build_number integer not null check (build_number >= 0),
  force_update boolean not null default false,
  min_supported_version text,
  -- Release notes by language: {"zh-CN": "...", "en": "...", ...}.
  notes jsonb not null default '{}',
  download_url text not null,
  released_at timestamptz not null,
  revision integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, platform, version)
);

-- 4. Subscription packages -------------------------------------------------------------------------
-- Defined by the platform operator (tenant_id = the default broker) and assigned to brokers. A
-- broker without an assignment has every module and no limits.
create table packages (
  id text primary key,
  tenant_id text not null references tenants (id),
  name text not null,
  description text not null default '',
  -- The optional modules (menu keys) that are on; core modules are always on.
  modules text[] not null default '{}',
  -- Null means no limit.
  max_staff integer check (max_staff >= 1),
  max_customers integer check (max_customers >= 0),
  max_trading_accounts integer check (max_trading_accounts >= 0),
  max_symbols integer check (max_symbols >= 0),
  revision integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, name)
);

create table package_assignments (
  tenant_id text primary key references tenants (id) on delete cascade,
  package_id text not null references packages (id),
  assigned_by text,
  assigned_at timestamptz not null default now()
);
create index package_assignments_package on package_assignments (package_id);
