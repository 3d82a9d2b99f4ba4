-- Issue 17: KYC submissions (the kyc module) and resumable chunked uploads (the files module).

-- KYC documents and videos are stored files of their own purpose: staff view them, traders never
-- see one another's.
alter table stored_files drop constraint if exists stored_files_purpose_check;
alter table stored_files add constraint stored_files_purpose_check
  check (purpose in ('avatar', 'feedback', 'kyc'));

-- One row per submission of a level; a rejected one stays (the reviewer sees the earlier ones) and
-- the trader submits a new one. The trader's state of a level is their latest submission's.
create table kyc_submissions (
  id text primary key,
  tenant_id text not null references tenants (id),
  user_id text not null references users (id),
  level text not null check (level in ('basic', 'senior')),
  status text not null default 'pending' check (status in ('pending', 'approved', 'rejected')),
  -- basic: first and last name, birth date, country, document type and number; senior: address.
  details jsonb not null,
  -- [{ "role": "front" | "back" | "selfie" | "proof" | "video", "fileId": "<stored_files.id>" }]
  files jsonb not null,
  -- The trader's language when submitting: the decision mail is written in it.
  locale text,
  submitted_at timestamptz not null default now(),
  reviewed_at timestamptz,
  -- The staff member who decided.
  reviewed_by text,
  -- Spec 5: a rejection gives a reason of at most 20 characters.
  reject_reason text check (char_length(reject_reason) <= 20),
  check ((status = 'pending') = (reviewed_at is null)),
  check ((status = 'rejected') = (reject_reason is not null))
);
-- At most one submission waits per trader and level, and at most one is approved.
create unique index kyc_submissions_one_pending on kyc_submissions (tenant_id, user_id, level)
  where status = 'pending';
create unique index kyc_submissions_one_approved on kyc_submissions (tenant_id, user_id, level)
  where status = 'approved';
-- The review queue: by state and level, oldest waiting first.
create index kyc_submissions_queue on kyc_submissions (tenant_id, status, level, submitted_at, id);
-- A trader's submissions, newest first (their state, the reviewer's history).
create index kyc_submissions_user on kyc_submissions (tenant_id, user_id, level, submitted_at desc);

-- A chunked upload: the client names it (`client_id`, a UUID) and sends `total` chunks in any order,
-- each at most once (a resend is ignored); merging joins them into a stored file. Chunks live under
-- DATA_DIR/files/chunks/<id>/<index>; an upload untouched for a day is removed with its chunks.
create table upload_sessions (
  id text primary key,
  tenant_id text not null references tenants (id),
  user_id text not null references users (id),
  client_id text not null,
  purpose text not null check (purpose in ('avatar', 'feedback', 'kyc')),
  total integer not null check (total between 1 and 1024),
  received integer not null default 0,
  bytes bigint not null default 0,
  -- Set while one request merges the chunks (a claim; a stale one is taken over after 10 minutes).
  merging_at timestamptz,
  -- The stored file once merged (a repeated merge answers it again).
  file_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, user_id, client_id),
  check (received between 0 and total)
);
create index upload_sessions_owner on upload_sessions (tenant_id, user_id, updated_at);
create index upload_sessions_age on upload_sessions (updated_at);

create table upload_chunks (
  upload_id text not null references upload_sessions (id) on delete cascade,
  chunk_index integer not null check (chunk_index >= 0),
  bytes integer not null check (bytes > 0),
  primary key (upload_id, chunk_index)
);
