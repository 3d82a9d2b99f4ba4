-- Four-eyes for the broker's staff sign-in rules (issue 15, finding 6): a change that weakens a rule
-- (a lower password minimum, money two-factor off) is stored here and applies only once a second
-- staff member holding `staff.security` approves it. At most one request waits per broker.
create table access_policy_requests (
  id text primary key,
  tenant_id text not null references tenants (id) on delete cascade,
  requested_by text not null references staff (id),
  requested_at timestamptz not null default now(),
  -- The proposed rules, both of them (what the broker's access_settings row becomes on approval).
  password_min_length integer not null check (password_min_length between 5 and 32),
  money_two_factor boolean not null,
  status text not null default 'pending'
    check (status in ('pending', 'approved', 'rejected', 'cancelled')),
  decided_by text references staff (id),
  decided_at timestamptz,
  check ((status = 'pending') = (decided_by is null and decided_at is null))
);
create unique index access_policy_requests_one_pending on access_policy_requests (tenant_id)
  where status = 'pending';
create index access_policy_requests_tenant on access_policy_requests (tenant_id, requested_at);
