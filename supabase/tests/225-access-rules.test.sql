-- The two access rules, each with one home (20261123000100_access_rules.sql), checked for
-- every role and through every path that uses them:
--   who may use a bot     private.can_chat_with_bot: the rule itself, the chats insert policy
--   who may view a chat   private.can_view_chat: the rule itself, the chats and messages row
--                         policies (own chat, the bot's team, platform admins; shared chats
--                         are not listable), get_shared_chat (RPC) and the realtime policy
-- Roles: the team's owner and admin, a member of another team ('other'), a visitor with a
-- password grant ('granted'), an anonymous visitor without one ('ungranted'), a signed-in
-- stranger, anon (no session) and a platform admin.
begin;
select plan(36);

select tests.create_team_fixture();
update public.teams set plan_id = 'business' where slug in ('team-a', 'team-b'); -- plan limits are 510-billing's concern
select tests.create_supabase_user('granted');
select tests.create_anonymous_user('ungranted');

-- a password bot in team-a, and a grant for 'granted'
insert into public.bots (id, team_id, name, visibility, created_by)
values ('e2250000-0000-4000-8000-000000000001', tests.team_id('team-a'), 'A password', 'private', tests.get_supabase_uid('owner'));
insert into public.bot_secrets (bot_id, password_hash)
values ('e2250000-0000-4000-8000-000000000001', extensions.crypt('pw', extensions.gen_salt('bf')));
update public.bots set visibility = 'password' where id = 'e2250000-0000-4000-8000-000000000001';
insert into public.bot_access_grants (bot_id, user_id) values ('e2250000-0000-4000-8000-000000000001', tests.get_supabase_uid('granted'));

-- three chats, one turn each (every stored turn is announced on chat:<id>)
--   c1: 'granted' with the password bot, not shared
--   c2: 'ungranted' with the public gallery bot, shared
--   c3: the owner with the team's private bot, shared
insert into public.chats (id, bot_id, user_id, shared) values
  ('c2250000-0000-4000-8000-000000000001', 'e2250000-0000-4000-8000-000000000001', tests.get_supabase_uid('granted'), false),
  ('c2250000-0000-4000-8000-000000000002', tests.bot_id('A gallery'), tests.get_supabase_uid('ungranted'), true),
  ('c2250000-0000-4000-8000-000000000003', tests.bot_id('A private'), tests.get_supabase_uid('owner'), true);
insert into public.messages (chat_id, role, content)
select id, 'user', 'hello' from public.chats where id::text like 'c2250000-%';

-- who may use a bot ---------------------------------------------------------------------
-- The bots (of 'A private', 'A gallery', 'A password') the caller may use; 'denied' when the
-- role may not even ask.
create function pg_temp.uses(who text) returns text language plpgsql as $$
declare
  r text;
begin
  if who = 'anon' then perform tests.clear_authentication(); else perform tests.authenticate_as(who); end if;
  begin
    select coalesce(string_agg(b.name, ', ' order by b.name), '') into r
    from unnest(array['A private', 'A gallery', 'A password']) as b(name)
    where private.can_chat_with_bot(tests.bot_id(b.name));
  exception when insufficient_privilege then
    r := 'denied';
  end;
  reset role;
  return r;
end;
$$;

select is(pg_temp.uses('owner'), 'A gallery, A password, A private', 'owner: uses every bot of the team');
select is(pg_temp.uses('admin'), 'A gallery, A password, A private', 'admin: uses every bot of the team');
select is(pg_temp.uses('other'), 'A gallery', 'member of another team: public bots only');
select is(pg_temp.uses('granted'), 'A gallery, A password', 'visitor with a grant: public bots and the granted password bot');
select is(pg_temp.uses('ungranted'), 'A gallery', 'visitor without a grant: public bots only');
select is(pg_temp.uses('stranger'), 'A gallery', 'signed-in stranger: public bots only');
select is(pg_temp.uses('platform'), 'A gallery, A password, A private', 'platform admin: every bot');
select is(pg_temp.uses('anon'), 'denied', 'anon (no session) may not ask');


-- starting a chat follows the same rule (policy "Visitors can start chats with bots they may use")
select tests.authenticate_as('ungranted');
select throws_ok(
  $$ insert into public.chats (bot_id) values ('e2250000-0000-4000-8000-000000000001') $$,
  '42501', null, 'a visitor without a grant cannot start a chat with the password bot');
select lives_ok(
  $$ insert into public.chats (bot_id) values (tests.bot_id('A gallery')) $$,
  'a visitor without a grant can start a chat with a public bot');
select tests.authenticate_as('granted');
select lives_ok(
  $$ insert into public.chats (bot_id) values ('e2250000-0000-4000-8000-000000000001') $$,
  'a visitor with a grant can start a chat with the password bot');
select tests.authenticate_as('other');
select throws_ok(
  $$ insert into public.chats (bot_id) values (tests.bot_id('A private')) $$,
  '42501', null, 'another team cannot start a chat with a private bot');
reset role;

-- who may view a chat ---------------------------------------------------------------------
-- What the caller gets of a chat through each path: 'rule' (can_view_chat), 'row' (the chats
-- row through RLS), 'messages' (its messages through RLS), 'rpc' (get_shared_chat), 'live'
-- (its realtime topic); 'denied' when the role may not even ask.
create function pg_temp.sees(who text, chat uuid) returns text language plpgsql as $$
declare
  got text[] := '{}';
begin
  if who = 'anon' then perform tests.clear_authentication(); else perform tests.authenticate_as(who); end if;
  begin
    if private.can_view_chat(chat) then got := array_append(got, 'rule'); end if;
    if exists (select 1 from public.chats c where c.id = chat) then got := array_append(got, 'row'); end if;
    if exists (select 1 from public.messages m where m.chat_id = chat) then got := array_append(got, 'messages'); end if;
    if public.get_shared_chat(chat) is not null then got := array_append(got, 'rpc'); end if;
    perform set_config('realtime.topic', 'chat:' || chat::text, true);
    if exists (select 1 from realtime.messages m where m.topic = 'chat:' || chat::text and m.extension = 'broadcast') then
      got := array_append(got, 'live');
    end if;
    perform set_config('realtime.topic', '', true);
  exception when insufficient_privilege then
    got := array['denied'];
  end;
  reset role;
  return array_to_string(got, ' ');
end;
$$;

-- c1: a visitor's chat with the password bot, not shared
select is(pg_temp.sees('granted', 'c2250000-0000-4000-8000-000000000001'), 'rule row messages live', 'c1: its visitor (with a grant) sees it everywhere but the shared-chat RPC');
select is(pg_temp.sees('owner', 'c2250000-0000-4000-8000-000000000001'), 'rule row messages live', 'c1: the bot''s owner sees it');
select is(pg_temp.sees('admin', 'c2250000-0000-4000-8000-000000000001'), 'rule row messages live', 'c1: the bot''s admin sees it');
select is(pg_temp.sees('platform', 'c2250000-0000-4000-8000-000000000001'), 'rule row messages live', 'c1: a platform admin sees it');
select is(pg_temp.sees('other', 'c2250000-0000-4000-8000-000000000001'), '', 'c1: another team sees nothing');
select is(pg_temp.sees('ungranted', 'c2250000-0000-4000-8000-000000000001'), '', 'c1: a visitor without a grant sees nothing');
select is(pg_temp.sees('stranger', 'c2250000-0000-4000-8000-000000000001'), '', 'c1: a stranger sees nothing');
select is(pg_temp.sees('anon', 'c2250000-0000-4000-8000-000000000001'), 'denied', 'c1: anon may not ask');

-- c2: a visitor's shared chat with a public bot: anyone with a session reads it by link, not as a row
select is(pg_temp.sees('ungranted', 'c2250000-0000-4000-8000-000000000002'), 'rule row messages rpc live', 'c2: its visitor sees it everywhere');
select is(pg_temp.sees('owner', 'c2250000-0000-4000-8000-000000000002'), 'rule row messages rpc live', 'c2: the bot''s owner sees it everywhere');
select is(pg_temp.sees('platform', 'c2250000-0000-4000-8000-000000000002'), 'rule row messages rpc live', 'c2: a platform admin sees it everywhere');
select is(pg_temp.sees('other', 'c2250000-0000-4000-8000-000000000002'), 'rule rpc live', 'c2: another team reads it by link and live, but cannot list it');
select is(pg_temp.sees('granted', 'c2250000-0000-4000-8000-000000000002'), 'rule rpc live', 'c2: another visitor reads it by link and live, but cannot list it');
select is(pg_temp.sees('anon', 'c2250000-0000-4000-8000-000000000002'), 'denied', 'c2: anon may not ask (visitors always have a session)');

-- c3: a shared chat with a private bot stays within the team
select is(pg_temp.sees('owner', 'c2250000-0000-4000-8000-000000000003'), 'rule row messages rpc live', 'c3: the team sees its shared private-bot chat');
select is(pg_temp.sees('admin', 'c2250000-0000-4000-8000-000000000003'), 'rule row messages rpc live', 'c3: the team''s admin too');
select is(pg_temp.sees('platform', 'c2250000-0000-4000-8000-000000000003'), 'rule row messages rpc live', 'c3: and a platform admin');
select is(pg_temp.sees('other', 'c2250000-0000-4000-8000-000000000003'), '', 'c3: sharing does not open a private bot''s chat to another team');
select is(pg_temp.sees('granted', 'c2250000-0000-4000-8000-000000000003'), '', 'c3: nor to a visitor with a grant to another bot');

-- losing access to the bot closes the visitor's own chat everywhere (the team still sees it)
delete from public.bot_access_grants where user_id = tests.get_supabase_uid('granted');
select is(pg_temp.sees('granted', 'c2250000-0000-4000-8000-000000000001'), '', 'c1: once the grant is gone, its visitor sees nothing');
select is(pg_temp.sees('owner', 'c2250000-0000-4000-8000-000000000001'), 'rule row messages live', 'c1: the team still does');

-- one home: the helpers are functions of `private`, security definer, search_path = '', stable
select is(
  (select count(*)::int from pg_proc p join pg_namespace n on n.oid = p.pronamespace
   where n.nspname = 'private'
     and p.proname in ('can_chat_with_bot', 'owns_chat', 'is_own_chat', 'can_read_shared_chat', 'can_view_chat')
     and p.prosecdef and p.provolatile = 's' and p.proconfig = array['search_path=""']),
  5, 'each rule is a stable security definer function in private with an empty search_path');
select ok(
  (select bool_and(qual like '%private.owns_chat(%' or with_check like '%private.owns_chat(%')
   from pg_policies where schemaname = 'public' and tablename = 'chats' and policyname like 'Visitors can %'
     and policyname <> 'Visitors can delete their own chats'),
  'the visitors'' chats policies state the own-chat rule by calling private.owns_chat');
select ok(
  (select qual like '%private.can_view_chat(%' from pg_policies
   where schemaname = 'realtime' and tablename = 'messages' and policyname = 'Chat viewers receive their chat''s updates'),
  'the realtime policy states the view rule by calling private.can_view_chat');

select * from finish();
rollback;
