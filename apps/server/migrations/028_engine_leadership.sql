-- The trading engine's lease and fencing (ADR 013). One row holds the current epoch: the number the
-- instance that won the engine lease took when it won it. Every group commit of the engine calls
-- engine_fence(its epoch) in the same statement: the commit is refused unless that epoch is still
-- the current one, and its share lock on the row makes a newer leader's bump wait for a commit in
-- flight, so no commit of an older epoch can land after a newer leader has read the state.
create table engine_epoch (
  id smallint primary key default 1 check (id = 1),
  epoch bigint not null,
  -- who won it: an instance id (random per process), the host name and process id
  holder text not null,
  host text not null,
  pid integer not null,
  acquired_at timestamptz not null default now()
);
insert into engine_epoch (id, epoch, holder, host, pid) values (1, 0, 'none', '', 0);

-- One row per term: who led the engine from when to when (operations, failover analysis).
create table engine_terms (
  epoch bigint primary key,
  holder text not null,
  host text not null,
  pid integer not null,
  lease text not null,
  started_at timestamptz not null default now(),
  ended_at timestamptz
);

create function engine_fence(mine bigint) returns integer
language plpgsql as $$
begin
  -- FOR SHARE conflicts with the UPDATE that takes a new epoch: a newer leader waits until this
  -- commit ends, and a commit that starts after the bump finds no row (read committed re-checks
  -- the condition on the newest row version).
  perform 1 from engine_epoch where id = 1 and epoch = mine for share;
  if not found then
    raise exception 'engine epoch % is fenced off: a newer engine leader holds the lease', mine
      using errcode = 'BF001';
  end if;
  return 1;
end
$$;
