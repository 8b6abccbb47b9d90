-- What hosted Supabase refuses `postgres` on the storage and realtime tables, refused
-- here too. Hosted lets postgres create policies there through supautils (and triggers,
-- with the TRIGGER privilege it holds), but not alter, drop or comment on the tables
-- that supabase_storage_admin and supabase_realtime_admin own. Plain PostgreSQL lets
-- only owners create policies, so locally postgres is a member of those owner roles
-- (20-storage.sql, 30-realtime.sql); this event trigger takes back the rest. Superusers
-- (the stack's own setup, the realtime service's partitions) are not limited.
-- Idempotent: runs at every start.

create or replace function extensions.parley_platform_ddl_guard() returns event_trigger
language plpgsql as $$
declare
  obj record;
begin
  if (select rolsuper from pg_roles where rolname = current_user) then
    return;
  end if;
  if tg_event = 'sql_drop' then
    for obj in select * from pg_event_trigger_dropped_objects() loop
      if obj.schema_name in ('storage', 'realtime')
         and not (tg_tag = 'DROP POLICY' or (tg_tag = 'DROP TRIGGER' and obj.object_identity not like 'protect\_%')) then
        raise exception 'hosted Supabase does not allow % on %', tg_tag, obj.object_identity using errcode = '42501';
      end if;
    end loop;
  else
    for obj in select * from pg_event_trigger_ddl_commands() loop
      if obj.schema_name in ('storage', 'realtime')
         and obj.command_tag not in ('CREATE POLICY', 'ALTER POLICY', 'CREATE TRIGGER', 'GRANT', 'REVOKE') then
        raise exception 'hosted Supabase does not allow % on %', obj.command_tag, obj.object_identity using errcode = '42501',
          hint = 'postgres may create policies and triggers on storage and realtime tables, nothing more.';
      end if;
    end loop;
  end if;
end
$$;
revoke all on function extensions.parley_platform_ddl_guard() from public;

do $$
begin
  drop event trigger if exists parley_platform_ddl_guard;
  create event trigger parley_platform_ddl_guard on ddl_command_end
    execute function extensions.parley_platform_ddl_guard();
  drop event trigger if exists parley_platform_drop_guard;
  create event trigger parley_platform_drop_guard on sql_drop
    execute function extensions.parley_platform_ddl_guard();
exception when insufficient_privilege then
  null; -- DATABASE_URL as a non-superuser: the server's own rules apply
end
$$;
