-- events: inserted by the event edge function with the service role; read only
-- by platform admins.
begin;
select plan(18);
select tests.create_team_fixture();

select tests.rls_enabled('public', 'events');

select tests.authenticate_as_service_role();
select lives_ok($$ insert into public.events (name, url, domain, referrer, width, hash_mode, props, revenue, user_id)
  values ('pageview', 'https://parley.test/pricing', 'parley.test', 'https://example.com/', 1280, false, '{"plan":"pro"}', null, tests.get_supabase_uid('owner')),
         ('signup', 'https://parley.test/app', 'parley.test', null, 390, false, '{}', '{"currency":"EUR","amount":"12.5"}', null) $$,
  'the service role inserts events');
select throws_ok($$ insert into public.events (name) values (repeat('n', 121)) $$, '23514', null, 'event names are bounded');
select throws_ok($$ insert into public.events (name, props) values ('x', '[1]') $$, '23514', null, 'props are an object');

-- select ----------------------------------------------------------------------
select tests.authenticate_as('platform');
select is(array(select name from public.events order by 1), array['pageview', 'signup'], 'the platform admin reads events');
select tests.authenticate_as('owner');
select is_empty($$ select * from public.events $$, 'a team owner reads no events (not even their own)');
select tests.authenticate_as('admin');
select is_empty($$ select * from public.events $$, 'a team admin reads no events');
select tests.authenticate_as('other');
select is_empty($$ select * from public.events $$, 'a member of another team reads no events');
select tests.authenticate_as('stranger');
select is_empty($$ select * from public.events $$, 'a stranger reads no events');
select tests.clear_authentication();
select is_empty($$ select * from public.events $$, 'anon reads no events');

-- insert / update / delete --------------------------------------------------------
select throws_ok($$ insert into public.events (name) values ('pageview') $$,
  '42501', 'permission denied for table events', 'anon cannot insert events (the edge function does)');
select tests.authenticate_as('owner');
select throws_ok($$ insert into public.events (name) values ('pageview') $$,
  '42501', 'permission denied for table events', 'a signed-in user cannot insert events');
select throws_ok($$ update public.events set name = 'x' $$,
  '42501', 'permission denied for table events', 'a signed-in user cannot update events');
select throws_ok($$ delete from public.events $$,
  '42501', 'permission denied for table events', 'a signed-in user cannot delete events');
select tests.authenticate_as('platform');
select throws_ok($$ insert into public.events (name) values ('pageview') $$,
  '42501', 'permission denied for table events', 'the platform admin cannot insert events');
select throws_ok($$ update public.events set name = 'x' $$,
  '42501', 'permission denied for table events', 'the platform admin cannot update events');
select throws_ok($$ delete from public.events $$,
  '42501', 'permission denied for table events', 'the platform admin cannot delete events');

reset role;
select is(array(select r || ':' || p from unnest(array['anon', 'authenticated']) r,
    unnest(array['select', 'insert', 'update', 'delete', 'truncate']) p
  where has_table_privilege(r, 'public.events', p) order by 1),
  array['anon:select', 'authenticated:select'], 'client roles may only select events (and RLS leaves that to platform admins)');

select * from finish();
rollback;
