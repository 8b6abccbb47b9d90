-- Sync schedules on hosted Supabase: pg_cron calls the `ingest` function's
-- /tick route every minute through pg_net, with the service-role key (the local
-- stack does the same from supabase/schedules.json, without pg_cron).
--
-- private.schedule_ingest_tick(functions_url, service_role_key) installs the job;
-- run it once as the postgres user after enabling pg_cron and pg_net:
--   select private.schedule_ingest_tick('https://<project>.supabase.co/functions/v1', '<service role key>');
-- This migration does it by itself when both extensions are installed and the
-- database settings parley.functions_url and parley.service_role_key are set
-- (alter database postgres set parley.functions_url = '...'; likewise the key).

create function private.schedule_ingest_tick(functions_url text, service_role_key text) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from pg_extension where extname = 'pg_cron')
     or not exists (select 1 from pg_extension where extname = 'pg_net') then
    raise exception 'Enable the pg_cron and pg_net extensions first' using errcode = '55000';
  end if;
  if functions_url !~ '^https?://' or coalesce(service_role_key, '') = '' then
    raise exception 'Give the functions URL (https://<project>.supabase.co/functions/v1) and the service-role key'
      using errcode = '22023';
  end if;
  execute format(
    'select cron.schedule(%L, %L, %L)',
    'parley-sync',
    '* * * * *',
    format(
      'select net.http_post(url := %L, headers := jsonb_build_object(''Authorization'', %L, ''Content-Type'', ''application/json''), body := ''{}''::jsonb)',
      rtrim(functions_url, '/') || '/ingest/tick',
      'Bearer ' || service_role_key
    )
  );
end;
$$;
comment on function private.schedule_ingest_tick(text, text) is
  'Installs the pg_cron job "parley-sync" that calls ingest/tick every minute (hosted Supabase).';
revoke execute on function private.schedule_ingest_tick(text, text) from public, anon, authenticated;

do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_cron')
     and exists (select 1 from pg_extension where extname = 'pg_net')
     and coalesce(current_setting('parley.functions_url', true), '') <> ''
     and coalesce(current_setting('parley.service_role_key', true), '') <> '' then
    perform private.schedule_ingest_tick(current_setting('parley.functions_url'), current_setting('parley.service_role_key'));
  end if;
end $$;
