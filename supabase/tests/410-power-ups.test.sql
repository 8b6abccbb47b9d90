-- Power-ups, their secrets and calls, leads and the handoff of a chat to a person: every role
-- against every action (owner, admin, a member of another team, a visitor, anon, a platform admin).
begin;
select plan(58);
select tests.create_team_fixture();
update public.teams set plan_id = 'business' where slug in ('team-a', 'team-b'); -- plan limits are 510-billing's concern
select tests.create_supabase_user('visitor1');

select tests.rls_enabled('public', 'power_ups');
select tests.rls_enabled('public', 'power_up_secrets');
select tests.rls_enabled('public', 'power_up_calls');
select tests.rls_enabled('public', 'leads');

-- power_ups: the team's admins and owners manage them --------------------------------------------
select tests.authenticate_as('owner');
select lives_ok(format($$ insert into public.power_ups (id, bot_id, type, name, example_phrases, settings) values
  ('11111111-0000-4000-8000-000000000001', %L, 'lead', 'contact_sales', array['talk to sales'],
   '{"fields": ["name", "email", "phone"], "required": ["email"]}') $$, tests.bot_id('A gallery')),
  'an owner creates a lead power-up');
select lives_ok(format($$ insert into public.power_ups (id, bot_id, type, name, settings) values
  ('11111111-0000-4000-8000-000000000002', %L, 'http', 'lookup_order', '{"method": "GET", "url": "https://shop.example.com/{{id}}"}') $$,
  tests.bot_id('A gallery')), 'an owner creates an http power-up');
select throws_ok(format($$ insert into public.power_ups (bot_id, type, name) values (%L, 'lead', 'has spaces') $$, tests.bot_id('A gallery')),
  '23514', null, 'a name the models would refuse is refused');
select throws_ok(format($$ insert into public.power_ups (bot_id, type, name) values (%L, 'shell', 'x') $$, tests.bot_id('A gallery')),
  '23514', null, 'an unknown type is refused');
select throws_ok(format($$ insert into public.power_ups (bot_id, type, name) values (%L, 'link', 'other_team') $$, tests.bot_id('B private')),
  '42501', null, 'an owner may not add a power-up to another team''s bot');

select tests.authenticate_as('admin');
select lives_ok(format($$ insert into public.power_ups (id, bot_id, type, name, settings) values
  ('11111111-0000-4000-8000-000000000003', %L, 'handoff', 'human', '{"handoff_text": "A person will answer."}') $$, tests.bot_id('A gallery')),
  'an admin creates a handoff power-up');
select is((select count(*)::int from public.power_ups where bot_id = tests.bot_id('A gallery')), 3, 'an admin reads the bot''s power-ups');
update public.power_ups set enabled = false where id = '11111111-0000-4000-8000-000000000003';
select is((select enabled from public.power_ups where id = '11111111-0000-4000-8000-000000000003'), false, 'an admin disables a power-up');
select throws_ok($$ update public.power_ups set call_count = 99 where id = '11111111-0000-4000-8000-000000000001' $$,
  '42501', null, 'nobody but the engine changes call counts');
select throws_ok(format($$ update public.power_ups set bot_id = %L where id = '11111111-0000-4000-8000-000000000001' $$, tests.bot_id('A unlisted')),
  '42501', null, 'a power-up does not move to another bot');

select tests.authenticate_as('other');
select is((select count(*)::int from public.power_ups where bot_id = tests.bot_id('A gallery')), 0, 'another team sees no power-ups');
update public.power_ups set enabled = false where id = '11111111-0000-4000-8000-000000000001';
delete from public.power_ups where id = '11111111-0000-4000-8000-000000000001';
select is(tests.count_all('public.power_ups', $$ id = '11111111-0000-4000-8000-000000000001' and enabled $$), 1,
  'another team can neither change nor delete them');

select tests.authenticate_as('visitor1');
select is((select count(*)::int from public.power_ups), 0, 'a visitor reads no power-ups');
select tests.clear_authentication();
select is((select count(*)::int from public.power_ups), 0, 'anon reads no power-ups');

select tests.authenticate_as('platform');
select is((select count(*)::int from public.power_ups), tests.count_all('public.power_ups'), 'a platform admin reads every power-up');
update public.power_ups set enabled = false where id = '11111111-0000-4000-8000-000000000001';
select is(tests.count_all('public.power_ups', $$ id = '11111111-0000-4000-8000-000000000001' and enabled $$), 1,
  'a platform admin changes none');

-- secrets: written through set_power_up_secret, values never readable by a client ----------------
select tests.authenticate_as('owner');
select lives_ok($$ select public.set_power_up_secret('11111111-0000-4000-8000-000000000002', 'API_KEY', 's3cret') $$,
  'an owner sets a secret');
select results_eq($$ select name from public.power_up_secret_names('11111111-0000-4000-8000-000000000002') $$,
  $$ values ('API_KEY'::text) $$, 'the team sees which secrets are set');
select throws_ok($$ select * from public.power_up_secrets $$, '42501', null, 'an owner may not read secret values');
select tests.authenticate_as('admin');
select lives_ok($$ select public.set_power_up_secret('11111111-0000-4000-8000-000000000002', 'API_KEY', 'rotated') $$,
  'an admin replaces a secret');
select tests.authenticate_as('other');
select throws_ok($$ select public.set_power_up_secret('11111111-0000-4000-8000-000000000002', 'API_KEY', 'mine') $$,
  'PT404', null, 'another team may not set the secret');
select is_empty($$ select * from public.power_up_secret_names('11111111-0000-4000-8000-000000000002') $$,
  'another team does not learn the secret names');
select tests.authenticate_as('visitor1');
select throws_ok($$ select * from public.power_up_secrets $$, '42501', null, 'a visitor may not read secrets');
select tests.clear_authentication();
select throws_ok($$ select public.set_power_up_secret('11111111-0000-4000-8000-000000000002', 'API_KEY', 'x') $$,
  '42501', null, 'anon may not set secrets');
select tests.authenticate_as_service_role();
select is((select value from public.power_up_secrets where name = 'API_KEY' and power_up_id = '11111111-0000-4000-8000-000000000002'),
  'rotated', 'the engine (service role) reads the value');

-- calls: written by the engine, read by the team ---------------------------------------------------
insert into public.power_up_calls (power_up_id, bot_id, name, arguments, status, result)
values ('11111111-0000-4000-8000-000000000002', tests.bot_id('A gallery'), 'lookup_order', '{"id": "A-1"}', 'ok', '{"status":"shipped"}');
select is((select call_count from public.power_ups where id = '11111111-0000-4000-8000-000000000002'), 1, 'a stored call counts on its power-up');
select tests.authenticate_as('admin');
select is((select count(*)::int from public.power_up_calls where bot_id = tests.bot_id('A gallery')), 1, 'the team reads the calls in full');
select throws_ok(format($$ insert into public.power_up_calls (bot_id, name, status) values (%L, 'fake', 'ok') $$, tests.bot_id('A gallery')),
  '42501', null, 'a team member may not invent calls');
select tests.authenticate_as('other');
select is((select count(*)::int from public.power_up_calls), 0, 'another team reads no calls');
select tests.authenticate_as('visitor1');
select is((select count(*)::int from public.power_up_calls), 0, 'a visitor reads no calls');

-- leads: a visitor leaves one for their own chat only ----------------------------------------------
create temporary table vchat on commit drop as
  select * from public.open_chat_turn(tests.bot_id('A gallery'), 'I want to talk to sales');
grant select on vchat to authenticated, service_role;
select isnt(public.submit_lead((select opened_chat_id from vchat), '11111111-0000-4000-8000-000000000001',
  '{"email": "vera@example.com", "name": "Vera", "injected": "dropped"}'), null, 'a visitor leaves a lead in their own chat');
select throws_ok(format($$ select public.submit_lead(%L, '11111111-0000-4000-8000-000000000001', '{"name": "No mail"}') $$, (select opened_chat_id from vchat)),
  '22023', 'The field email is required', 'a required field is required');
select throws_ok(format($$ select public.submit_lead(%L, '11111111-0000-4000-8000-000000000001', '{"email": "not-an-address"}') $$, (select opened_chat_id from vchat)),
  '22023', 'The e-mail address is not valid', 'an invalid e-mail is refused');
select throws_ok(format($$ select public.submit_lead(%L, '11111111-0000-4000-8000-000000000003', '{"email": "a@b.co"}') $$, (select opened_chat_id from vchat)),
  'PT404', null, 'a power-up that is no lead form takes no leads');
select throws_ok($$ insert into public.leads (bot_id, fields) values (tests.bot_id('A gallery'), '{"email": "x@y.z"}') $$,
  '42501', null, 'a visitor may not insert leads directly');
select is((select count(*)::int from public.leads), 0, 'a visitor reads no leads, not even their own');
select tests.authenticate_as('stranger');
select throws_ok(format($$ select public.submit_lead(%L, '11111111-0000-4000-8000-000000000001', '{"email": "s@x.io"}') $$, (select opened_chat_id from vchat)),
  'PT404', null, 'nobody leaves a lead in someone else''s chat');
select tests.authenticate_as('admin');
select results_eq($$ select fields from public.leads where bot_id = tests.bot_id('A gallery') $$,
  $$ values ('{"email": "vera@example.com", "name": "Vera"}'::jsonb) $$, 'the team reads the lead with only the form''s fields');
select tests.authenticate_as('other');
select is((select count(*)::int from public.leads), 0, 'another team reads no leads');
select tests.authenticate_as('platform');
select is((select count(*)::int from public.leads), tests.count_all('public.leads'), 'a platform admin reads every lead');

-- handoff: the visitor asks, the team replies and hands back --------------------------------------
select tests.authenticate_as('visitor1');
select throws_ok(format($$ update public.chats set needs_human = true where id = %L $$, (select opened_chat_id from vchat)),
  '42501', null, 'a visitor may not flip the handoff state directly');
select is(public.request_handoff((select opened_chat_id from vchat)), true, 'a visitor asks for a person in their own chat');
select is(public.request_handoff((select opened_chat_id from vchat)), false, 'asking again changes nothing');
select throws_ok(format($$ insert into public.messages (chat_id, role, content) values (%L, 'human', 'I am staff') $$, (select opened_chat_id from vchat)),
  '42501', null, 'a visitor may not write as a person of the team');
select tests.authenticate_as('other');
select throws_ok(format($$ select public.reply_as_human(%L, 'hello') $$, (select opened_chat_id from vchat)),
  'PT404', null, 'another team may not reply in the chat');
select tests.authenticate_as('platform');
select throws_ok(format($$ select public.reply_as_human(%L, 'hello') $$, (select opened_chat_id from vchat)),
  '42501', null, 'a platform admin reads but does not reply');
select tests.authenticate_as('admin');
select isnt(public.reply_as_human((select opened_chat_id from vchat), 'Adam here, how can I help?'), null, 'an admin replies as a person');
select results_eq(format($$ select role, author_id from public.messages where chat_id = %L and role = 'human' $$, (select opened_chat_id from vchat)),
  format($$ values ('human'::text, %L::uuid) $$, tests.get_supabase_uid('admin')), 'the reply is a human turn with its author');
select lives_ok(format($$ select public.hand_back_chat(%L) $$, (select opened_chat_id from vchat)), 'an admin hands the chat back');
select is((select needs_human from public.chats where id = (select opened_chat_id from vchat)), false, 'the bot answers again');

-- matching without a model (the engine, as the service role) -----------------------------------------
select tests.authenticate_as_service_role();
select results_eq($$ select power_up_id from public.match_power_ups(tests.bot_id('A gallery'), 'Hello, can I talk to sales please?') $$,
  $$ values ('11111111-0000-4000-8000-000000000001'::uuid) $$, 'a message close to an example phrase matches its power-up');
select is_empty($$ select * from public.match_power_ups(tests.bot_id('A gallery'), 'How do I export my notes?') $$,
  'an unrelated message matches none');
select tests.authenticate_as('owner');
select throws_ok($$ select * from public.match_power_ups(tests.bot_id('A gallery'), 'talk to sales') $$, '42501', null,
  'clients do not call the matcher');
select tests.clear_authentication();
select throws_ok($$ select * from public.match_power_ups(tests.bot_id('A gallery'), 'talk to sales') $$, '42501', null,
  'anon does not call the matcher');

select * from finish();
rollback;
