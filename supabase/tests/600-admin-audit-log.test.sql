-- admin_audit_log: platform administrators read it; no role writes it directly; nobody, the
-- service role included, updates, deletes or truncates it; the two writers record the actor.
begin;
select plan(22);
select tests.create_team_fixture();

select tests.rls_enabled('public', 'admin_audit_log');

-- the writers -------------------------------------------------------------------------------
select tests.authenticate_as_service_role();
select throws_ok(
  format($$ select public.admin_log_action(%L, 'user.ban', 'user', 'x') $$, tests.get_supabase_uid('owner')),
  '42501', 'The actor is not a platform administrator', 'the service role cannot record an action for a non-administrator');
select throws_ok($$ select public.admin_log_action(null, 'user.ban', 'user', 'x') $$,
  '42501', 'The actor is not a platform administrator', 'nor without an actor');
select lives_ok(
  format($$ select public.admin_log_action(%L, 'user.ban', 'user', %L, '{"banned": false}', '{"banned": true}') $$,
    tests.get_supabase_uid('platform'), tests.get_supabase_uid('stranger')),
  'the service role records an action for a platform administrator');
select throws_ok($$ select private.log_admin_action('team.plan_change', 'team', 't1') $$, '42501', null,
  'the service role does not call the private writer directly');
reset role;
select is(
  (select actor_email from public.admin_audit_log where action = 'user.ban'),
  (select email::text from auth.users where id = tests.get_supabase_uid('platform')),
  'the entry keeps the administrator''s e-mail');
select lives_ok(
  format($$ select private.log_admin_action('team.plan_change', 'team', 't1', null, '{"plan": "pro"}', %L) $$, tests.get_supabase_uid('platform')),
  'security-definer code (the owner role) records through the private writer');

select tests.authenticate_as('platform');
select throws_ok($$ select public.admin_log_action(auth.uid(), 'user.ban', 'user', 'x') $$,
  '42501', null, 'a platform administrator cannot write entries through the service-role function');
select throws_ok($$ select private.log_admin_action('user.ban', 'user', 'x') $$,
  '42501', null, 'nor through the private one');
select throws_ok($$ insert into public.admin_audit_log (action, target_type) values ('user.ban', 'user') $$,
  '42501', null, 'nor insert rows');

-- reads ---------------------------------------------------------------------------------------
select is((select count(*)::int from public.admin_audit_log), tests.count_all('public.admin_audit_log'),
  'a platform administrator reads the whole log');
select tests.authenticate_as('owner');
select is_empty($$ select * from public.admin_audit_log $$, 'a team owner reads nothing');
select tests.authenticate_as('stranger');
select is_empty($$ select * from public.admin_audit_log $$, 'the target of an action reads nothing');
select tests.clear_authentication();
select throws_ok($$ select * from public.admin_audit_log $$, '42501', null, 'anon may not select');
select throws_ok(
  format($$ select public.admin_log_action(%L, 'user.ban', 'user', 'x') $$, tests.get_supabase_uid('platform')),
  '42501', null, 'anon cannot record');

-- nobody changes it ---------------------------------------------------------------------------
select tests.authenticate_as('platform');
select throws_ok($$ update public.admin_audit_log set action = 'user.unban' $$, '42501', null,
  'a platform administrator cannot update entries');
select throws_ok($$ delete from public.admin_audit_log $$, '42501', null,
  'a platform administrator cannot delete entries');
select tests.authenticate_as_service_role();
select throws_ok($$ update public.admin_audit_log set action = 'user.unban' $$, '42501',
  'The admin audit log cannot be changed', 'the service role cannot update entries');
select throws_ok($$ delete from public.admin_audit_log $$, '42501',
  'The admin audit log cannot be changed', 'the service role cannot delete entries');
select throws_ok($$ truncate public.admin_audit_log $$, '42501', null, 'the service role cannot truncate it');
reset role;
select throws_ok($$ delete from public.admin_audit_log $$, '42501',
  'The admin audit log cannot be changed', 'the table owner cannot delete entries either');
select is((select count(*)::int from public.admin_audit_log where target_id in ('t1', tests.get_supabase_uid('stranger')::text)), 2,
  'both entries are still there');

select * from finish();
rollback;
