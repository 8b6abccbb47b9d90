-- The hosted schedules (pg_cron jobs calling ingest, tests, deliver and tasks /tick): who may
-- install them, and what the helper says without pg_cron.
begin;
select plan(4);

select ok(exists (select 1 from pg_proc where proname = 'schedule_function_ticks' and pronamespace = 'private'::regnamespace),
  'private.schedule_function_ticks exists');
select ok(not has_function_privilege('authenticated', 'private.schedule_function_ticks(text, text)', 'execute'),
  'signed-in users cannot install schedules');
select ok(not has_function_privilege('anon', 'private.schedule_function_ticks(text, text)', 'execute'),
  'anon cannot install schedules');
-- without pg_cron (the local stack) the helper says what is missing instead of failing obscurely;
-- with it (a hosted database), bad arguments are refused before anything is scheduled
select case
  when exists (select 1 from pg_extension where extname = 'pg_cron') and exists (select 1 from pg_extension where extname = 'pg_net')
  then (select throws_ok($$ select private.schedule_function_ticks('not a url', 'key') $$, '22023', null,
        'a bad functions URL is refused'))
  else (select throws_ok($$ select private.schedule_function_ticks('https://example.supabase.co/functions/v1', 'key') $$,
        '55000', 'Enable the pg_cron and pg_net extensions first', 'without pg_cron and pg_net the helper explains what to enable'))
end;

select * from finish();
rollback;
