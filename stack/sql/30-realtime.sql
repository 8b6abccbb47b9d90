-- Realtime platform objects, as Supabase Realtime creates them in a project:
-- realtime.messages (the table whose RLS policies authorise private channels),
-- realtime.topic(), realtime.send(), and the stack's own visibility check that
-- decides which subscribers may see a changed row. Idempotent: runs at every start.

-- messages ---------------------------------------------------------------------
create table if not exists realtime.messages (
  topic text not null,
  extension text not null,
  payload jsonb,
  event text,
  private boolean default false,
  updated_at timestamp without time zone not null default now(),
  inserted_at timestamp without time zone not null default now(),
  id uuid not null default gen_random_uuid(),
  primary key (id, inserted_at)
);
comment on table realtime.messages is 'Realtime: broadcast/presence messages; RLS on this table authorises private channels.';
create index if not exists messages_topic_inserted_at_idx on realtime.messages (topic, inserted_at);

alter table realtime.messages enable row level security;
grant select, insert, update, delete on realtime.messages to postgres, service_role;
grant select, insert, update on realtime.messages to anon, authenticated;

-- the topic of the channel being authorised, as Supabase sets it ----------------
create or replace function realtime.topic() returns text
language sql stable as $$
  select nullif(current_setting('realtime.topic', true), '')::text
$$;
grant execute on function realtime.topic() to public;

-- realtime.send: broadcast from SQL (the stack delivers rows it sees inserted) ---
create or replace function realtime.send(payload jsonb, event text, topic text, private boolean default true)
returns void
language plpgsql
security invoker
set search_path = ''
as $$
begin
  insert into realtime.messages (payload, event, topic, private, extension)
  values (payload, event, topic, private, 'broadcast');
exception when others then
  raise warning 'ErrorSendingBroadcastMessage: %', sqlerrm;
end
$$;
grant execute on function realtime.send(jsonb, text, text, boolean) to postgres, anon, authenticated, service_role;

-- visibility of one changed row for many subscribers -----------------------------
-- Returns the 0-based indexes of `subs` (a jsonb array of {role, claims}) whose role
-- and claims may select the row of `rel` whose key columns equal `key_vals`. It
-- switches role and claims per subscriber with set_config(..., true), as Supabase's
-- realtime.apply_rls does, so it must run as the superuser in its own transaction
-- (a single autocommit statement): the settings end with it.
create or replace function realtime.visible_to(rel regclass, key_cols text[], key_types text[], key_vals text[], subs jsonb)
returns int[]
language plpgsql
volatile
as $$
declare
  q text := '';
  i int;
  ok boolean;
  result int[] := '{}';
  sub jsonb;
begin
  if coalesce(array_length(key_cols, 1), 0) = 0 then
    return result;
  end if;
  for i in 1 .. array_length(key_cols, 1) loop
    q := q || case when i > 1 then ' and ' else '' end
      || format('%I = ($1)[%s]::%s', key_cols[i], i, key_types[i]);
  end loop;
  q := format('select exists (select 1 from %s where %s)', rel, q);
  for i in 0 .. jsonb_array_length(subs) - 1 loop
    sub := subs -> i;
    if (sub ->> 'role') not in ('anon', 'authenticated', 'service_role') then
      continue;
    end if;
    begin
      perform set_config('role', sub ->> 'role', true);
      perform set_config('request.jwt.claims', sub ->> 'claims', true);
      execute q into ok using key_vals;
      if ok then
        result := result || i;
      end if;
    exception when others then
      -- no privilege on the table, or a policy that fails: not visible
      null;
    end;
  end loop;
  perform set_config('role', 'none', true);
  return result;
end
$$;
revoke all on function realtime.visible_to(regclass, text[], text[], text[], jsonb) from public, anon, authenticated, service_role;

-- broadcasts sent from SQL reach the stack through the write-ahead log ------------
do $$
begin
  if not exists (select 1 from pg_publication where pubname = 'parley_realtime_messages') then
    create publication parley_realtime_messages for table realtime.messages with (publish = 'insert');
  end if;
end
$$;
