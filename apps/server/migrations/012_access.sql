-- Back-office access: staff two-factor sign-in and sign-in history, system roles, each broker's
-- security settings, its arranged menu, and the short-lived two-factor enrolment after a right
-- password for staff who must have two-factor on.
alter table staff add column totp_secret text;
alter table staff add column totp_pending_secret text;
alter table staff add column last_sign_in_at timestamptz;
alter table staff add column password_changed_at timestamptz;

-- A system role holds every permission the broker may grant, now and as the map grows; it cannot
-- be edited or deleted.
alter table roles add column is_system boolean not null default false;
alter table roles add column description text not null default '';
create unique index roles_one_system on roles (tenant_id) where is_system;
create index roles_parent on roles (parent_id);
create index staff_roles_role on staff_roles (role_id);

update roles set is_system = true
where name = 'Administrator'
  and parent_id is null
  and not exists (select 1 from roles other where other.tenant_id = roles.tenant_id and other.is_system);

create table access_settings (
  tenant_id text primary key references tenants (id) on delete cascade,
  -- The broker's own minimum on top of the product's 5 (spec 5).
  password_min_length integer not null default 8 check (password_min_length between 5 and 32),
  -- Staff whose permissions move money must sign in with two-factor.
  money_two_factor boolean not null default true,
  updated_at timestamptz not null default now()
);

create table access_menu_layouts (
  tenant_id text primary key references tenants (id) on delete cascade,
  -- [{ "title": string | null, "keys": [menu key, ...] }, ...]
  sections jsonb not null,
  -- Menu keys hidden from everyone's side menu.
  hidden jsonb not null default '[]',
  updated_by text,
  updated_at timestamptz not null default now()
);

create table staff_enrolments (
  token_hash text primary key,
  tenant_id text not null references tenants (id) on delete cascade,
  staff_id text not null references staff (id) on delete cascade,
  secret text not null,
  attempts integer not null default 0,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index staff_enrolments_staff on staff_enrolments (staff_id);
