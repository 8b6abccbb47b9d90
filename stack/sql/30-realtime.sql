-- Realtime platform objects, as Supabase Realtime creates them in a project:
-- realtime.messages (the table whose RLS policies authorise private channels),
-- realtime.topic(), realtime.send(), and the stack's own visibility check that
-- decides which subscribers may see a changed row. Idempotent: runs at every start.
-- Against a hosted Supabase database (DATABASE_URL) Supabase's own realtime objects
-- already exist and are not ours to replace: those parts only run where they are missing,
-- and the stack's helpers are skipped with a warning where the schema is not writable.

-- messages, realtime.topic(), realtime.send() ---------------------------------------
-- As on hosted Supabase: realtime.messages is partitioned by day (messages_YYYY_MM_DD),
-- the realtime service creates today's and the next days' partitions and drops those
-- older than three days; a row for a day without a partition is refused (realtime.send
-- then loses the broadcast with a warning). supabase_realtime_admin owns the table;
-- postgres is a member so that migrations may put policies on it, as hosted allows.
do $do$
declare
  pol record;
  policies text[] := '{}';
  stmt text;
begin
  -- A database made before the table was partitioned: keep its policies, replace the table
  -- (its rows are broadcasts of the last three days, nothing to keep).
  if (select relkind from pg_class where oid = to_regclass('realtime.messages')) = 'r' then
    for pol in select * from pg_policies where schemaname = 'realtime' and tablename = 'messages' loop
      policies := policies || format('create policy %I on realtime.messages as %s for %s to %s%s%s',
        pol.policyname, pol.permissive, pol.cmd,
        (select string_agg(case when r = 'public' then 'public' else quote_ident(r) end, ', ') from unnest(pol.roles) as r),
        case when pol.qual is not null then ' using (' || pol.qual || ')' else '' end,
        case when pol.with_check is not null then ' with check (' || pol.with_check || ')' else '' end);
    end loop;
    drop publication if exists parley_realtime_messages;
    drop table realtime.messages;
  end if;

  if to_regclass('realtime.messages') is null then
    create table realtime.messages (
      topic text not null,
      extension text not null,
      payload jsonb,
      event text,
      private boolean default false,
      updated_at timestamp without time zone not null default now(),
      inserted_at timestamp without time zone not null default now(),
      id uuid not null default gen_random_uuid(),
      primary key (id, inserted_at)
    ) partition by range (inserted_at);
    comment on table realtime.messages is 'Realtime: broadcast/presence messages, partitioned by day; RLS on this table authorises private channels.';
    create index messages_inserted_at_topic_index on realtime.messages (inserted_at desc, topic);
    alter table realtime.messages enable row level security;
    grant select, insert, update, delete on realtime.messages to postgres, service_role;
    grant select, insert, update on realtime.messages to anon, authenticated;
    foreach stmt in array policies loop
      execute stmt;
    end loop;
  end if;

  -- the topic of the channel being authorised, as Supabase sets it
  if to_regprocedure('realtime.topic()') is null then
    create function realtime.topic() returns text
    language sql stable as $fn$
      select nullif(current_setting('realtime.topic', true), '')::text
    $fn$;
    grant execute on function realtime.topic() to public;
  end if;
end
$do$;

-- broadcast from SQL, as hosted Supabase's realtime.send: the payload gets the message's
-- `id` (unless it has one), realtime.topic is set for the rest of the transaction, and a
-- failed insert (no partition for today, a refused row) is a warning, not an error.
-- The stack delivers the rows it sees inserted (through the WAL).
do $do$
begin
  create or replace function realtime.send(payload jsonb, event text, topic text, private boolean default true)
  returns void
  language plpgsql
  security invoker
  set search_path = ''
  as $fn$
  declare
    message_id uuid := gen_random_uuid();
    body jsonb := payload;
  begin
    begin
      if body is not null and not body ? 'id' then
        body := body || jsonb_build_object('id', message_id);
      end if;
      perform set_config('realtime.topic', topic, true);
      insert into realtime.messages (id, payload, event, topic, private, extension)
      values (message_id, body, event, topic, private, 'broadcast');
    exception when others then
      raise warning 'ErrorSendingBroadcastMessage: %', sqlerrm;
    end;
  end
  $fn$;
  grant execute on function realtime.send(jsonb, text, text, boolean) to postgres, anon, authenticated, service_role;
exception when insufficient_privilege then
  null; -- DATABASE_URL as a non-superuser: Supabase's own realtime.send stays
end
$do$;

-- today's and the next three days' partitions; those older than three days are dropped.
-- The realtime service calls it at start and every hour (stack/src/realtime/partitions.ts).
do $do$
begin
  create or replace function realtime.parley_manage_partitions(keep_days int default 3, ahead_days int default 3)
  returns void
  language plpgsql
  set search_path = ''
  as $fn$
  declare
    today date := now()::date;
    d date;
    part record;
  begin
    if (select relkind from pg_class where oid = to_regclass('realtime.messages')) is distinct from 'p' then
      return;
    end if;
    for d in select generate_series(today, today + ahead_days, interval '1 day')::date loop
      if to_regclass(format('realtime.%I', 'messages_' || to_char(d, 'YYYY_MM_DD'))) is null then
        execute format('create table realtime.%I partition of realtime.messages for values from (%L) to (%L)',
          'messages_' || to_char(d, 'YYYY_MM_DD'), d, d + 1);
        execute format('alter table realtime.%I owner to supabase_realtime_admin', 'messages_' || to_char(d, 'YYYY_MM_DD'));
      end if;
    end loop;
    for part in
      select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid
       where i.inhparent = 'realtime.messages'::regclass and c.relname ~ '^messages_\d{4}_\d{2}_\d{2}$'
         and to_date(substr(c.relname, 10), 'YYYY_MM_DD') < today - keep_days
    loop
      execute format('drop table realtime.%I', part.relname);
    end loop;
  end
  $fn$;
  revoke all on function realtime.parley_manage_partitions(int, int) from public, postgres, anon, authenticated, service_role;
  perform realtime.parley_manage_partitions();

  alter table realtime.messages owner to supabase_realtime_admin;
  alter function realtime.topic() owner to supabase_realtime_admin;
  alter function realtime.send(jsonb, text, text, boolean) owner to supabase_realtime_admin;
  grant usage on schema realtime to supabase_realtime_admin;
  grant supabase_realtime_admin to postgres;
exception when insufficient_privilege then
  raise warning 'realtime: cannot manage realtime.messages partitions here (%)', sqlerrm;
end
$do$;

do $do$
begin
-- has a transaction (32-bit xid from the WAL) become visible to new snapshots? -------
-- Logical decoding can hand over a commit a moment before the committing backend has
-- left the proc array; a visibility check must not run before that.
create or replace function realtime.xact_visible(x bigint) returns boolean
language sql volatile as $fn$
  with s as (select pg_current_snapshot() as snap),
       m as (select snap, pg_snapshot_xmax(snap)::text::numeric as xmax from s)
  select pg_visible_in_snapshot(
    ((case when x <= mod(xmax, 4294967296) then div(xmax, 4294967296) else div(xmax, 4294967296) - 1 end) * 4294967296 + x)::text::xid8,
    snap)
  from m
$fn$;
revoke all on function realtime.xact_visible(bigint) from public, anon, authenticated, service_role;

-- visibility of one changed row for many subscribers -----------------------------
-- Returns the 0-based indexes of `subs` (a jsonb array of {role, claims}) whose role
-- and claims may select the row of `rel` whose key columns equal `key_vals`, once
-- transaction `xid` is visible. It switches role and claims per subscriber with
-- set_config(..., true), as Supabase's realtime.apply_rls does, so it must run as the
-- superuser in its own transaction (a single autocommit statement): the settings end with it.
drop function if exists realtime.visible_to(regclass, text[], text[], text[], jsonb);
-- One prepared statement with a generic plan serves every subscriber of a role (the
-- caller sorts subscribers by role): the claims are read when it runs, not planned in.
-- All subscribers are checked in one subtransaction; if a check raises (no privilege,
-- a failing policy), they are checked again one by one and the failing ones are left out.
create or replace function realtime.visible_to(rel regclass, key_cols text[], key_types text[], key_vals text[], subs jsonb, xid bigint default null)
returns int[]
language plpgsql
volatile
as $fn$
declare
  q text := '';
  stmt text := 'parley_rls_' || pg_backend_pid();
  run text;
  i int;
  ok boolean;
  result int[] := '{}';
  sub jsonb;
  n int := jsonb_array_length(subs);
begin
  if coalesce(array_length(key_cols, 1), 0) = 0 or n = 0 then
    return result;
  end if;
  if xid is not null then
    for i in 1 .. 500 loop
      exit when realtime.xact_visible(xid);
      perform pg_sleep(0.001);
    end loop;
  end if;
  for i in 1 .. array_length(key_cols, 1) loop
    q := q || case when i > 1 then ' and ' else '' end
      || format('%I = ($1)[%s]::%s', key_cols[i], i, key_types[i]);
  end loop;
  q := format('select exists (select 1 from %s where %s)', rel, q);
  perform set_config('plan_cache_mode', 'force_generic_plan', true);
  if exists (select 1 from pg_prepared_statements where name = stmt) then
    execute format('deallocate %I', stmt);
  end if;
  execute format('prepare %I(text[]) as %s', stmt, q);
  run := format('execute %I(%L)', stmt, key_vals);
  begin
    for i in 0 .. n - 1 loop
      sub := subs -> i;
      continue when (sub ->> 'role') not in ('anon', 'authenticated', 'service_role');
      perform set_config('role', sub ->> 'role', true);
      perform set_config('request.jwt.claims', sub ->> 'claims', true);
      execute run into ok;
      if ok then
        result := result || i;
      end if;
    end loop;
  exception when others then
    result := '{}';
    for i in 0 .. n - 1 loop
      sub := subs -> i;
      continue when (sub ->> 'role') not in ('anon', 'authenticated', 'service_role');
      begin
        perform set_config('role', sub ->> 'role', true);
        perform set_config('request.jwt.claims', sub ->> 'claims', true);
        execute run into ok;
        if ok then
          result := result || i;
        end if;
      exception when others then
        null; -- no privilege on the table, or a policy that fails: not visible
      end;
    end loop;
  end;
  perform set_config('role', 'none', true);
  execute format('deallocate %I', stmt);
  return result;
end
$fn$;
revoke all on function realtime.visible_to(regclass, text[], text[], text[], jsonb, bigint) from public, anon, authenticated, service_role;
exception when insufficient_privilege then
  raise warning 'realtime: cannot create the stack''s helper functions in schema realtime (%); postgres_changes will not be delivered', sqlerrm;
end
$do$;

-- broadcasts sent from SQL reach the stack through the write-ahead log ------------
do $$
begin
  if not exists (select 1 from pg_publication where pubname = 'parley_realtime_messages') then
    create publication parley_realtime_messages for table realtime.messages with (publish = 'insert', publish_via_partition_root = true);
  else
    alter publication parley_realtime_messages set (publish = 'insert', publish_via_partition_root = true);
  end if;
exception when insufficient_privilege then
  raise warning 'realtime: cannot publish realtime.messages (%); realtime.send() broadcasts will not be delivered', sqlerrm;
end
$$;
