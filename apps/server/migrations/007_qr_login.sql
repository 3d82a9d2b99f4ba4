-- QR sign-in tickets: shown as a QR code on the waiting page, confirmed by a signed-in device.
create table qr_tickets (
  ticket_hash text primary key,
  tenant_id text not null references tenants (id),
  status text not null check (status in ('waiting', 'scanned', 'confirmed', 'consumed', 'cancelled')),
  user_id text,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
