begin;
select plan(12);

select tests.create_supabase_user('grant_owner', 'grant-owner@test.local');
select tests.create_supabase_user('grant_visitor', 'grant-visitor@test.local');
select tests.create_supabase_user('grant_other', 'grant-other@test.local');

-- a team with a public, a password and a private bot
select tests.authenticate_as('grant_owner');
select public.create_team('Grant Team', 'grant-team');
select tests.authenticate_as_service_role();
insert into public.bots (id, team_id, name, visibility) values
  ('d0000000-0000-0000-0000-000000000001', (select id from public.teams where slug = 'grant-team'), 'Open', 'public'),
  ('d0000000-0000-0000-0000-000000000003', (select id from public.teams where slug = 'grant-team'), 'Closed', 'private');
insert into public.bots (id, team_id, name, visibility) values
  ('d0000000-0000-0000-0000-000000000002', (select id from public.teams where slug = 'grant-team'), 'Locked', 'private');
insert into public.bot_secrets (bot_id, password_hash) values
  ('d0000000-0000-0000-0000-000000000002', extensions.crypt('pw', extensions.gen_salt('bf')));
update public.bots set visibility = 'password' where id = 'd0000000-0000-0000-0000-000000000002';

select ok((select relrowsecurity from pg_class where oid = 'public.bot_access_grants'::regclass), 'RLS is on');

-- anon (no session at all) cannot even ask: visitors chat with a (possibly anonymous) session
select tests.clear_authentication();
select throws_ok($$ select private.can_chat_with_bot('d0000000-0000-0000-0000-000000000001') $$, '42501', null, 'anon cannot call the access check');
select tests.create_supabase_user('grant_anon_visitor', 'grant-anon@test.local');
select tests.authenticate_as('grant_anon_visitor');
select ok(private.can_chat_with_bot('d0000000-0000-0000-0000-000000000001'), 'any session may chat with a public bot');
select ok(not private.can_chat_with_bot('d0000000-0000-0000-0000-000000000003'), 'a stranger may not chat with a private bot');

-- a visitor before and after the grant
select tests.authenticate_as('grant_visitor');
select ok(not private.can_chat_with_bot('d0000000-0000-0000-0000-000000000002'), 'a visitor without a grant is refused');
select throws_ok(
  $$ insert into public.bot_access_grants (bot_id, user_id) values ('d0000000-0000-0000-0000-000000000002', auth.uid()) $$,
  '42501', null, 'a visitor cannot grant themselves access');
select tests.authenticate_as_service_role();
insert into public.bot_access_grants (bot_id, user_id) values ('d0000000-0000-0000-0000-000000000002', tests.get_supabase_uid('grant_visitor'));
select tests.authenticate_as('grant_visitor');
select ok(private.can_chat_with_bot('d0000000-0000-0000-0000-000000000002'), 'with a grant the visitor may chat');
select is((select count(*)::int from public.bot_access_grants), 1, 'the visitor sees their own grant');
select ok(not private.can_chat_with_bot('d0000000-0000-0000-0000-000000000003'), 'a grant does not open private bots');

-- an expired grant
select tests.authenticate_as_service_role();
update public.bot_access_grants set expires_at = now() - interval '1 minute';
select tests.authenticate_as('grant_visitor');
select ok(not private.can_chat_with_bot('d0000000-0000-0000-0000-000000000002'), 'an expired grant no longer opens the bot');

-- the team and strangers
select tests.authenticate_as('grant_owner');
select ok(private.can_chat_with_bot('d0000000-0000-0000-0000-000000000003'), 'the team may chat with its private bot');
select tests.authenticate_as('grant_other');
select is((select count(*)::int from public.bot_access_grants), 0, 'a stranger sees no grants');

select * from finish();
rollback;
