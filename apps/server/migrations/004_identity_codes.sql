-- Phone-only traders have no email; verification codes, captcha challenges and the SMS sandbox outbox.
alter table users alter column email drop not null;

create table verification_codes (
  id bigserial primary key,
  tenant_id text not null references tenants (id),
  channel text not null check (channel in ('email', 'sms', 'whatsapp')),
  target text not null,
  purpose text not null check (purpose in ('register', 'reset', 'login')),
  code_hash text not null,
  attempts integer not null default 0,
  expires_at timestamptz not null,
  consumed_at timestamptz,
  created_at timestamptz not null default now()
);
create index verification_codes_target on verification_codes (tenant_id, target, purpose, created_at desc);

create table captcha_challenges (
  id text primary key,
  salt text not null,
  difficulty integer not null,
  expires_at timestamptz not null,
  used_at timestamptz
);

create table sms_outbox (
  id bigserial primary key,
  provider_id text not null,
  channel text not null,
  recipient text not null,
  body text not null,
  status text not null,
  created_at timestamptz not null default now()
);
