-- The admin area's reads and SQL actions: every role but the platform administrator gets an
-- error from each admin_* function (anon, a signed-in stranger, a team owner, a team admin, a
-- bot visitor, the service role); the administrator gets the right rows, keyset paging is
-- stable (no row twice, none lost, ties broken by id), search, filters and sorting work, and
-- the actions change what they say and write the audit log.
begin;
select plan(113);
select tests.create_team_fixture();
select tests.create_anonymous_user('visitor');

create temporary table admin_calls (call text) on commit drop;
insert into admin_calls values
  ($$ select * from public.admin_list_users() $$),
  ($$ select * from public.admin_list_teams() $$),
  ($$ select * from public.admin_list_team_members() $$),
  ($$ select * from public.admin_list_bots() $$),
  ($$ select * from public.admin_list_chats() $$),
  ($$ select * from public.admin_list_audit_log() $$),
  ($$ select public.admin_get_user(tests.get_supabase_uid('owner')) $$),
  ($$ select public.admin_get_bot(tests.bot_id('A private')) $$),
  ($$ select public.admin_set_team_plan(tests.team_id('team-a'), 'pro') $$),
  ($$ select public.admin_unlist_bot(tests.bot_id('A gallery')) $$),
  ($$ select public.admin_delete_bot(tests.bot_id('A private')) $$);
grant select on admin_calls to anon, authenticated, service_role;

-- nobody but a platform administrator -------------------------------------------------------
select tests.clear_authentication();
select throws_ok(call, '42501', null, 'anon is refused: ' || call) from admin_calls order by call limit 11;
select tests.authenticate_as('stranger');
select throws_ok(call, '42501', 'Only platform administrators may do this', 'a stranger is refused: ' || call) from admin_calls order by call;
select tests.authenticate_as('owner');
select throws_ok(call, '42501', 'Only platform administrators may do this', 'a team owner is refused: ' || call) from admin_calls order by call;
select tests.authenticate_as('admin');
select throws_ok(call, '42501', 'Only platform administrators may do this', 'a team admin is refused: ' || call) from admin_calls order by call;
select tests.authenticate_as('visitor');
select throws_ok(call, '42501', 'Only platform administrators may do this', 'a bot visitor is refused: ' || call) from admin_calls order by call;
reset role;
select is(
  (select jsonb_build_object('plan', (select plan_id from public.teams where slug = 'team-a'),
    'bots', (select count(*) from public.bots where name in ('A private', 'A gallery') and (name = 'A private' or gallery_listed)),
    'log', (select count(*) from public.admin_audit_log))),
  jsonb_build_object('plan', 'free', 'bots', 2, 'log', 0),
  'the refused actions changed nothing and logged nothing');

-- users ---------------------------------------------------------------------------------------
select tests.authenticate_as('platform');
select is((select array_agg(email) from public.admin_list_users(search => 'OWNER@test.parley.local')),
  array['owner@test.parley.local'], 'a user is found by exact e-mail, whatever the case');
select is((select array_agg(email) from public.admin_list_users(search => 'strang')),
  array['stranger@test.parley.local'], 'or by a part of the display name');
select is((select array_agg(email) from public.admin_list_users(search => tests.get_supabase_uid('other')::text)),
  array['other@test.parley.local'], 'or by id');
select ok((select teams @> '[{"name": "Team A", "role": "admin"}]' from public.admin_list_users(search => 'admin@test.parley.local')),
  'a user row lists the user''s teams and roles');
select ok((select bool_and(is_anonymous) from public.admin_list_users(kind_filter => 'anonymous', page_size => 500)),
  'kind anonymous lists anonymous users only');
select ok(tests.get_supabase_uid('visitor') in (select id from public.admin_list_users(kind_filter => 'anonymous', page_size => 500)),
  'the visitor is among them');
reset role;
update auth.users set banned_until = now() + interval '1 day' where id = tests.get_supabase_uid('stranger');
insert into auth.identities (provider_id, user_id, identity_data, provider)
values (tests.get_supabase_uid('other')::text, tests.get_supabase_uid('other'), '{"email": "other@test.parley.local"}', 'email'),
       ('gh-other', tests.get_supabase_uid('other'), '{"email": "other@test.parley.local"}', 'github');
select tests.authenticate_as('platform');
select ok(tests.get_supabase_uid('stranger') in (select id from public.admin_list_users(kind_filter => 'banned', page_size => 500))
  and not exists (select 1 from public.admin_list_users(kind_filter => 'banned', page_size => 500) where banned_until is null or banned_until <= now()),
  'kind banned lists the banned users only');
select is((select providers from public.admin_list_users(search => 'other@test')),
  array['email', 'github'], 'an e-mail prefix finds the user through its identities; the row lists its sign-in methods');
select throws_ok($$ select * from public.admin_list_users(kind_filter => 'robots') $$, '22023', null, 'an unknown kind is a 400');

-- teams and keyset paging -----------------------------------------------------------------------
reset role;
-- Same created_at for all (one transaction): the id breaks the ties.
insert into public.teams (name, slug, created_by)
select 'Pagetest ' || n, 'pagetest-' || n, tests.get_supabase_uid('other') from generate_series(1, 7) n;
select tests.authenticate_as('platform');

create temporary table pages (page int, id uuid, name text) on commit drop;
grant all on pages to authenticated;
do $$
declare
  last_value text;
  last_id uuid;
  n int := 0;
begin
  loop
    n := n + 1;
    insert into pages
      select n, t.id, t.name from public.admin_list_teams(search => 'pagetest', page_size => 3,
        after_value => last_value, after_id => last_id) t;
    select t.created_at::text, t.id into last_value, last_id from public.admin_list_teams(search => 'pagetest', page_size => 3,
        after_value => last_value, after_id => last_id) t order by t.created_at, t.id limit 1;
    exit when not found or n > 10;
  end loop;
end;
$$;
select is((select count(*)::int from pages), 7, 'paging through 3 at a time returns all 7 teams');
select is((select count(distinct id)::int from pages), 7, 'and none twice');
select is((select array_agg(page order by page) from (select page, count(*) from pages group by page) p), array[1, 2, 3],
  'in pages of 3, 3 and 1');
select is((select array_agg(id order by page, id desc) from pages),
  (select array_agg(id order by created_at desc, id desc) from public.teams where slug like 'pagetest-%'),
  'newest first, ties broken by id, across pages');
select is((select array_agg(name) from public.admin_list_teams(search => 'pagetest', sort => 'name', descending => false, page_size => 2)),
  array['Pagetest 1', 'Pagetest 2'], 'sorted by name ascending');
select is((select array_agg(name) from public.admin_list_teams(search => 'pagetest', sort => 'name', descending => false, page_size => 2,
    after_value => 'Pagetest 2', after_id => (select id from public.teams where slug = 'pagetest-2'))),
  array['Pagetest 3', 'Pagetest 4'], 'the next page by name starts after the cursor');
select throws_ok($$ select * from public.admin_list_teams(sort => 'plan_id; drop table x') $$, '22023', null,
  'a sort column outside the whitelist is a 400');
select is((select count(*)::int from public.admin_list_teams(page_size => 500)), least(500, tests.count_all('public.teams')),
  'the administrator lists every team');
select is((select array_agg(name order by name) from public.admin_list_teams(member_filter => tests.get_supabase_uid('admin'), personal_filter => false)),
  array['Team A'], 'teams filtered by member (and not personal)');
select is((select jsonb_build_object('members', member_count, 'bots', bot_count) from public.admin_list_teams(search => 'team-a')),
  '{"members": 2, "bots": 3}'::jsonb, 'a team row counts members and bots');
select is((select count(*)::int from public.admin_list_teams(search => 'pagetest', personal_filter => true)), 0, 'filter personal');
select is((select count(*)::int from public.admin_list_teams(page_size => 0)), 1, 'a page holds at least one row');

-- team members ----------------------------------------------------------------------------------
select is((select array_agg(email || ':' || role order by email) from public.admin_list_team_members(team_filter => tests.team_id('team-a'))),
  array['admin@test.parley.local:admin', 'owner@test.parley.local:owner'], 'the members of a team with their roles');
select is((select array_agg(team_name) from public.admin_list_team_members(team_filter => tests.team_id('team-a'), role_filter => 'admin')),
  array['Team A'], 'filtered by role');
select is((select count(*)::int from public.admin_list_team_members(user_filter => tests.get_supabase_uid('other'))),
  (select count(*)::int from public.team_members where user_id = tests.get_supabase_uid('other')), 'filtered by user');

-- bots ------------------------------------------------------------------------------------------
select is((select array_agg(name) from public.admin_list_bots(team_filter => tests.team_id('team-a'), sort => 'name', descending => false)),
  array['A gallery', 'A private', 'A unlisted'], 'a team''s bots by name');
select is((select array_agg(name) from public.admin_list_bots(team_filter => tests.team_id('team-a'), listed_filter => true)),
  array['A gallery'], 'filtered by gallery listing');
select is((select array_agg(name) from public.admin_list_bots(search => 'B priv')), array['B private'], 'searched by name');
select is((select array_agg(name) from public.admin_list_bots(search => tests.bot_id('A unlisted')::text)), array['A unlisted'], 'or by id');
select is((select array_agg(team_name) from public.admin_list_bots(search => 'B priv', visibility_filter => 'private')),
  array['Team B'], 'filtered by visibility, with the team''s name');

-- chats -----------------------------------------------------------------------------------------
reset role;
insert into public.chats (bot_id, user_id, title, message_count)
values (tests.bot_id('A private'), tests.get_supabase_uid('stranger'), 'Refund question', 4),
       (tests.bot_id('A private'), tests.get_supabase_uid('stranger'), 'Opening hours', 9),
       (tests.bot_id('B private'), tests.get_supabase_uid('other'), 'Hello', 1);
select tests.authenticate_as('platform');
select is((select array_agg(title) from public.admin_list_chats(bot_filter => tests.bot_id('A private'), sort => 'message_count')),
  array['Opening hours', 'Refund question'], 'a bot''s chats by message count');
select is((select array_agg(title) from public.admin_list_chats(bot_filter => tests.bot_id('A private'), sort => 'message_count',
    after_value => '9', after_id => (select id from public.chats where title = 'Opening hours'))),
  array['Refund question'], 'the next page after a message-count cursor');
select is((select array_agg(bot_name || ':' || user_email) from public.admin_list_chats(search => 'refund')),
  array['A private:stranger@test.parley.local'], 'searched by title, with bot and user');
select is((select count(*)::int from public.admin_list_chats(user_filter => tests.get_supabase_uid('stranger'))), 2, 'filtered by user');

-- details ---------------------------------------------------------------------------------------
select is((select public.admin_get_user(tests.get_supabase_uid('admin')) -> 'teams' -> 0 ->> 'name'), 'Team A', 'a user''s details list its teams');
select is((select public.admin_get_user(tests.get_supabase_uid('stranger')) ->> 'chat_count'), '2', 'and count its chats');
select is((select jsonb_array_length(public.admin_get_user(tests.get_supabase_uid('other')) -> 'identities')), 2, 'and its sign-in methods');
select is((select public.admin_get_bot(tests.bot_id('A private')) -> 'team' ->> 'name'), 'Team A', 'a bot''s details name its team');
select is((select public.admin_get_bot(tests.bot_id('A private')) ->> 'chat_count'), '2', 'and count its chats');
select throws_ok($$ select public.admin_get_user(gen_random_uuid()) $$, 'PT404', 'No user with this id', 'an unknown user is a 404');
select throws_ok($$ select public.admin_get_bot(gen_random_uuid()) $$, 'PT404', 'No bot with this id', 'an unknown bot is a 404');

-- actions ---------------------------------------------------------------------------------------
select lives_ok($$ select public.admin_set_team_plan(tests.team_id('team-a'), 'pro') $$, 'the administrator moves a team to another plan');
select is((select plan_id from public.admin_list_teams(search => 'team-a')), 'pro', 'the team is on the new plan');
select is((select array_agg(name) from public.admin_list_teams(search => 'team', plan_filter => 'pro')), array['Team A'], 'teams filtered by plan');
select is((select jsonb_build_object('actor', actor_id, 'before', before, 'after', after)
           from public.admin_list_audit_log(target_id_filter => tests.team_id('team-a')::text, action_filter => 'team.plan_change')),
  jsonb_build_object('actor', tests.get_supabase_uid('platform'), 'before', '{"plan_id": "free"}'::jsonb, 'after', '{"plan_id": "pro"}'::jsonb),
  'the move is in the audit log: who, before, after');
select throws_ok($$ select public.admin_set_team_plan(tests.team_id('team-a'), 'platinum') $$, '22023', 'No plan with this id', 'an unknown plan is a 400');
select throws_ok($$ select public.admin_set_team_plan(gen_random_uuid(), 'pro') $$, 'PT404', 'No team with this id', 'an unknown team is a 404');
reset role;
update public.subscriptions set stripe_customer_id = 'cus_t', stripe_subscription_id = 'sub_t', status = 'active'
  where team_id = tests.team_id('team-b');
select tests.authenticate_as('platform');
select throws_ok($$ select public.admin_set_team_plan(tests.team_id('team-b'), 'business') $$, 'PT409',
  'This team pays through Stripe: change or cancel its subscription in Stripe first',
  'a team paying through Stripe is not moved here (Stripe would keep charging the old plan)');
select is((select plan_id from public.teams where id = tests.team_id('team-b')), (select plan_id from public.subscriptions where team_id = tests.team_id('team-b')),
  'and stays on its plan');

select lives_ok($$ select public.admin_unlist_bot(tests.bot_id('A gallery')) $$, 'the administrator unlists a gallery bot');
select is((select gallery_listed from public.admin_list_bots(search => 'A gallery')), false, 'it is no longer listed');
select is((select after from public.admin_list_audit_log(action_filter => 'bot.unlist')), '{"gallery_listed": false}'::jsonb, 'the unlisting is logged');

select lives_ok($$ select public.admin_delete_bot(tests.bot_id('A private')) $$, 'the administrator deletes a bot');
select is((select count(*)::int from public.admin_list_bots(search => 'A private')), 0, 'it is gone');
select is((select before ->> 'name' from public.admin_list_audit_log(action_filter => 'bot.delete')), 'A private', 'the deletion is logged with what the bot was');
select throws_ok($$ select public.admin_delete_bot(gen_random_uuid()) $$, 'PT404', 'No bot with this id', 'deleting an unknown bot is a 404');

-- the audit log list ----------------------------------------------------------------------------
select is((select array_agg(action) from public.admin_list_audit_log(search => 'platform@test')),
  array['bot.delete', 'bot.unlist', 'team.plan_change'], 'the audit log, newest first, searched by actor e-mail');
select is((select array_agg(action) from public.admin_list_audit_log(search => 'platform@test', page_size => 1,
    before_id => (select max(id) from public.admin_audit_log))),
  array['bot.unlist'], 'paged before an id');

select * from finish();
rollback;
