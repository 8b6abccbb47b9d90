-- Who is told of a bot's test regressions: the test settings' owners / admins / chosen members /
-- extra addresses, validated in SQL, written under the settings' RLS, and the addresses with the
-- language each reads the mail in (public.test_regression_recipients, service role only).
begin;
select plan(18);
select tests.create_team_fixture();
select tests.create_supabase_user('outsider', 'outsider@example.test');

reset role;
update public.profiles set preferred_language = 'de' where id = tests.get_supabase_uid('admin');
update public.profiles set preferred_language = 'fr' where id = tests.get_supabase_uid('outsider');
update public.bots set language = 'pl' where id = tests.bot_id('A private');

-- defaults: the team's owners -------------------------------------------------------------------
select tests.authenticate_as_service_role();
select results_eq($$ select email, language from public.test_regression_recipients(tests.bot_id('A private')) $$,
  $$ values ('owner@test.parley.local'::text, 'en'::text) $$,
  'without test settings the owners are told, in their language');

-- the owner chooses ---------------------------------------------------------------------------
select tests.authenticate_as('owner');
select throws_ok($$ insert into public.bot_test_settings (bot_id, notify_member_ids)
  values (tests.bot_id('A private'), array[tests.get_supabase_uid('other')]) $$, '22023', null,
  'a recipient must be a member of the bot''s team');
select throws_ok($$ insert into public.bot_test_settings (bot_id, notify_emails)
  values (tests.bot_id('A private'), '{not-an-address}') $$, '22023', null,
  'an extra address must be an address');
select throws_ok($$ insert into public.bot_test_settings (bot_id, notify_emails)
  values (tests.bot_id('A private'), '{"a@b.test, c@d.test"}') $$, '22023', null,
  'two addresses in one entry are refused');
select throws_ok($$ insert into public.bot_test_settings (bot_id, notify_emails)
  values (tests.bot_id('A private'), (select array_agg('x' || i || '@example.test') from generate_series(1, 21) i)) $$, '23514', null,
  'at most 20 extra addresses');
select lives_ok($$ insert into public.bot_test_settings (bot_id, notify_owners, notify_admins, notify_member_ids, notify_emails)
  values (tests.bot_id('A private'), false, false, array[tests.get_supabase_uid('admin'), tests.get_supabase_uid('admin')],
          '{" Support@Example.TEST ", "support@example.test", "", "Outsider@example.test"}') $$,
  'the owner names a member and extra addresses');
select is((select notify_emails from public.bot_test_settings where bot_id = tests.bot_id('A private')),
  '{support@example.test,outsider@example.test}'::text[], 'addresses are trimmed, lower-cased and kept once');
select is((select notify_member_ids from public.bot_test_settings where bot_id = tests.bot_id('A private')),
  array[tests.get_supabase_uid('admin')], 'a member is named once');

select tests.authenticate_as_service_role();
select results_eq($$ select email, language from public.test_regression_recipients(tests.bot_id('A private')) order by email $$,
  $$ values ('admin@test.parley.local'::text, 'de'::text), ('outsider@example.test', 'fr'), ('support@example.test', 'pl') $$,
  'the chosen member in their language, an address with an account in its language, others in the bot''s language');

select tests.authenticate_as('admin');
select lives_ok($$ update public.bot_test_settings set notify_owners = true, notify_admins = true, notify_member_ids = '{}', notify_emails = '{}'
  where bot_id = tests.bot_id('A private') $$, 'an admin changes the recipients too');
select tests.authenticate_as_service_role();
select results_eq($$ select email, language from public.test_regression_recipients(tests.bot_id('A private')) order by email $$,
  $$ values ('admin@test.parley.local'::text, 'de'::text), ('owner@test.parley.local', 'en') $$,
  'owners and admins, each once');

-- a member who leaves is no longer told
reset role;
update public.bot_test_settings set notify_owners = false, notify_admins = false,
  notify_member_ids = array[tests.get_supabase_uid('admin')] where bot_id = tests.bot_id('A private');
delete from public.team_members where user_id = tests.get_supabase_uid('admin') and team_id = tests.team_id('team-a');
select tests.authenticate_as_service_role();
select is_empty($$ select * from public.test_regression_recipients(tests.bot_id('A private')) $$,
  'a chosen member who left the team is not told');

-- others ------------------------------------------------------------------------------------------
select tests.authenticate_as('other');
select is_empty($$ select notify_emails from public.bot_test_settings $$, 'another team''s owner cannot read the recipients');
select lives_ok($$ update public.bot_test_settings set notify_emails = '{evil@example.test}' $$, 'another team''s owner''s update runs');
reset role;
select is((select notify_emails from public.bot_test_settings where bot_id = tests.bot_id('A private')), '{}'::text[],
  'and changes nothing');
select tests.authenticate_as('other');
select throws_ok($$ select * from public.test_regression_recipients(tests.bot_id('A private')) $$, '42501', null,
  'clients cannot list the recipients');
select tests.clear_authentication();
select throws_ok($$ select * from public.test_regression_recipients(tests.bot_id('A private')) $$, '42501', null,
  'anon cannot list the recipients');
reset role;
select ok(not has_function_privilege('authenticated', 'private.test_regression_recipients(uuid)', 'execute'),
  'the private function is the service role''s');

select * from finish();
rollback;
