-- bots: team admins and owners manage the team's bots; only the team (and platform
-- admins) read bots rows; the public reads listed bots through gallery_bots() and
-- public/password bots by id through get_public_bot(), neither exposing instructions.
begin;
select plan(44);
select tests.create_team_fixture();
update public.teams set plan_id = 'business' where slug in ('team-a', 'team-b'); -- plan limits are 510-billing's concern

select tests.rls_enabled('public', 'bots');

-- select ----------------------------------------------------------------------
select tests.authenticate_as('owner');
select is(array(select name from public.bots order by 1), array['A gallery', 'A private', 'A unlisted'], 'the owner reads the team''s bots');
select tests.authenticate_as('admin');
select is(array(select name from public.bots order by 1), array['A gallery', 'A private', 'A unlisted'], 'the admin reads the team''s bots');
select tests.authenticate_as('other');
select is(array(select name from public.bots order by 1), array['B private'],
  'a member of another team reads only their own team''s bots');
select tests.authenticate_as('stranger');
select is_empty($$ select * from public.bots $$, 'a signed-in stranger reads no bots rows, not even gallery bots');
select tests.clear_authentication();
select is_empty($$ select * from public.bots $$, 'anon reads no bots rows');
select tests.authenticate_as('platform');
select is((select count(*)::int from public.bots), tests.count_all('public.bots'),
  'the platform admin reads every bot');

-- get_public_bot ----------------------------------------------------------------
select tests.clear_authentication();
select is((select name from public.get_public_bot(tests.bot_id('A unlisted'))), 'A unlisted',
  'anon reads an unlisted public bot by id through get_public_bot');
select is_empty($$ select * from public.get_public_bot(tests.bot_id('A private')) $$, 'anon gets nothing for a private bot');
select tests.authenticate_as('stranger');
select is((select name from public.get_public_bot(tests.bot_id('A gallery'))), 'A gallery', 'signed-in users use get_public_bot too');
select is_empty($$ select * from public.get_public_bot(tests.bot_id('A private')) $$, 'a stranger gets nothing for a private bot');
select tests.authenticate_as('other');
select is_empty($$ select * from public.get_public_bot(tests.bot_id('A private')) $$, 'another team gets nothing for a private bot');
select tests.authenticate_as('admin');
select is((select name from public.get_public_bot(tests.bot_id('A private'))), 'A private',
  'the bot''s team reads its private bot''s chat face (it may chat with it)');
reset role;
select ok(not (array['instructions', 'model', 'team_id'] && (select proargnames from pg_proc where oid = 'public.get_public_bot(uuid)'::regprocedure)),
  'get_public_bot does not expose instructions, model or team');

-- gallery_bots -------------------------------------------------------------------
select tests.clear_authentication();
select is(array(select name from public.gallery_bots() where name in ('A gallery', 'A private', 'A unlisted', 'B private') order by 1),
  array['A gallery'], 'anon lists the gallery through gallery_bots');
select tests.authenticate_as('stranger');
select is(array(select name from public.gallery_bots() where name in ('A gallery', 'A private', 'A unlisted', 'B private') order by 1),
  array['A gallery'], 'signed-in users list the same gallery');
select is((select count(*)::int from public.gallery_bots() g where g.id = tests.bot_id('A unlisted')), 0,
  'gallery_bots leaves out unlisted bots');
reset role;
select ok(not (array['instructions', 'model', 'model_provider', 'team_id', 'temperature'] && (select proargnames from pg_proc where oid = 'public.gallery_bots()'::regprocedure)),
  'gallery_bots does not expose instructions, model or team');
select ok(has_function_privilege('anon', 'public.gallery_bots()', 'execute'), 'anon may execute gallery_bots');

-- has_bot_role (for tables under a bot) ----------------------------------------
select tests.authenticate_as('admin');
select ok((select private.has_bot_role(tests.bot_id('A private'), 'admin')), 'has_bot_role: the admin manages the team''s bot');
select ok(not (select private.has_bot_role(tests.bot_id('A private'), 'owner')), 'has_bot_role: the admin is not its owner');
select tests.authenticate_as('owner');
select ok((select private.has_bot_role(tests.bot_id('A private'), 'admin')), 'has_bot_role: an owner counts as admin');
select tests.authenticate_as('other');
select ok(not (select private.has_bot_role(tests.bot_id('A private'))), 'has_bot_role: another team has no role on the bot');
select tests.authenticate_as('stranger');
select ok(not (select private.has_bot_role(tests.bot_id('A gallery'))), 'has_bot_role: seeing a gallery bot gives no role');

-- insert ----------------------------------------------------------------------
select tests.authenticate_as('owner');
insert into public.bots (team_id, name) values (tests.team_id('team-a'), 'by owner');
select tests.authenticate_as('admin');
insert into public.bots (team_id, name, language, model_provider, model, temperature, suggested_questions, theme)
values (tests.team_id('team-a'), 'by admin', 'jp', 'openai', 'gpt-4o-mini', 0.7, array['Hello?'], '{"primary":"#4f46e5"}');
select is((select created_by from public.bots where name = 'by admin'), auth.uid(), 'created_by defaults to the signed-in user');
select tests.authenticate_as_service_role();
select is(array(select name from public.bots where name like 'by %' order by 1), array['by admin', 'by owner'],
  'the owner and the admin create bots in the team');
select tests.authenticate_as('admin');
select throws_ok($$ insert into public.bots (team_id, name, created_by) values (tests.team_id('team-a'), 'x', tests.get_supabase_uid('owner')) $$,
  '42501', 'A bot is created by the signed-in user', 'a bot cannot be created in someone else''s name');
select throws_ok($$ insert into public.bots (team_id, name, visibility) values (tests.team_id('team-a'), 'x', 'password') $$,
  '22023', 'Set a chat password (set_bot_password) before making the bot password-protected', 'a password bot needs a password first');
select throws_ok($$ insert into public.bots (team_id, name, language) values (tests.team_id('team-a'), 'x', 'xx') $$,
  '23514', null, 'a bot''s language is one of the ten codes');
select throws_ok($$ insert into public.bots (team_id, name, temperature) values (tests.team_id('team-a'), 'x', 2.5) $$,
  '23514', null, 'temperature is between 0 and 2');
select throws_ok($$ insert into public.bots (team_id, name, model_provider) values (tests.team_id('team-a'), 'x', 'skynet') $$,
  '23514', null, 'the model provider is a known one');
select tests.authenticate_as('other');
select throws_ok($$ insert into public.bots (team_id, name) values (tests.team_id('team-a'), 'x') $$,
  '42501', 'new row violates row-level security policy for table "bots"', 'a member of another team cannot create bots in the team');
select tests.authenticate_as('stranger');
select throws_ok($$ insert into public.bots (team_id, name) values (tests.team_id('team-a'), 'x') $$,
  '42501', 'new row violates row-level security policy for table "bots"', 'a stranger cannot create bots in the team');
select tests.authenticate_as('platform');
select throws_ok($$ insert into public.bots (team_id, name) values (tests.team_id('team-a'), 'x') $$,
  '42501', 'new row violates row-level security policy for table "bots"', 'the platform admin cannot create bots in the team');
select tests.clear_authentication();
select throws_ok($$ insert into public.bots (team_id, name) values (tests.team_id('team-a'), 'x') $$,
  '42501', 'new row violates row-level security policy for table "bots"', 'anon cannot create bots');

-- update ----------------------------------------------------------------------
select tests.authenticate_as('other');
update public.bots set name = 'hacked' where team_id = tests.team_id('team-a');
select tests.authenticate_as('stranger');
update public.bots set name = 'hacked' where team_id = tests.team_id('team-a');
select tests.authenticate_as('platform');
update public.bots set name = 'hacked' where team_id = tests.team_id('team-a');
select tests.clear_authentication();
update public.bots set name = 'hacked';
select tests.authenticate_as_service_role();
select is((select count(*)::int from public.bots where name = 'hacked'), 0,
  'other teams, strangers (even on gallery bots), the platform admin and anon cannot update bots');

select tests.authenticate_as('admin');
update public.bots set description = 'edited by admin', gallery_listed = true, visibility = 'public' where name = 'A private';
select tests.authenticate_as('owner');
update public.bots set instructions = 'edited by owner' where name = 'A private';
select tests.authenticate_as_service_role();
select is((select description || '/' || instructions || '/' || visibility from public.bots where name = 'A private'),
  'edited by admin/edited by owner/public', 'the admin and the owner update the team''s bots');
select tests.authenticate_as('admin');
select throws_ok($$ update public.bots set team_id = tests.team_id('team-b') where name = 'A private' $$,
  '42501', 'A bot cannot be moved to another team', 'bots.team_id is protected');
select throws_ok($$ update public.bots set created_by = tests.get_supabase_uid('admin') where name = 'A private' $$,
  '42501', 'The creator of a bot cannot be changed', 'bots.created_by is protected');
select throws_ok($$ update public.bots set visibility = 'password' where name = 'A private' $$,
  '22023', 'Set a chat password (set_bot_password) before making the bot password-protected', 'visibility password needs a password first');
select lives_ok($$ update public.bots set updated_at = '2000-01-01', created_at = '2000-01-01' where name = 'A private' $$, 'timestamps are not client-set…');
select is((select created_at < '2001-01-01' or updated_at < '2001-01-01' from public.bots where name = 'A private'), false, '…the database keeps them');

-- delete ----------------------------------------------------------------------
select tests.authenticate_as('other');
delete from public.bots where team_id = tests.team_id('team-a');
select tests.authenticate_as('stranger');
delete from public.bots where team_id = tests.team_id('team-a');
select tests.authenticate_as('platform');
delete from public.bots where team_id = tests.team_id('team-a');
select tests.clear_authentication();
delete from public.bots;
select tests.authenticate_as_service_role();
select is((select count(*)::int from public.bots where team_id = tests.team_id('team-a')), 5,
  'other teams, strangers, the platform admin and anon cannot delete bots');
select tests.authenticate_as('admin');
delete from public.bots where name = 'A unlisted';
select tests.authenticate_as('owner');
delete from public.bots where name = 'by owner';
select tests.authenticate_as_service_role();
select is(array(select name from public.bots where team_id = tests.team_id('team-a') order by 1), array['A gallery', 'A private', 'by admin'],
  'the admin and the owner delete the team''s bots');

select * from finish();
rollback;
