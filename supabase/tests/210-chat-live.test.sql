-- Live chats: each stored turn is broadcast on the private topic chat:<chat id>
-- (ids only), and only those who may view the chat may receive that topic: its
-- owner, anyone while it is shared, the bot's team and platform admins.
begin;
select plan(18);
select tests.create_team_fixture();
select tests.create_supabase_user('visitor1');
select tests.create_supabase_user('visitor2');

select tests.authenticate_as('visitor1');
insert into public.chats (id, bot_id) values ('f2000000-0000-4000-8000-000000000001', tests.bot_id('A gallery'));
insert into public.messages (id, chat_id, role, content) values
  ('f3000000-0000-4000-8000-000000000001', 'f2000000-0000-4000-8000-000000000001', 'user', 'Hello there');
reset role;

select is(realtime.topic(), 'chat:f2000000-0000-4000-8000-000000000001',
  'realtime.send leaves realtime.topic set to its topic for the rest of the transaction, as on hosted Supabase');
select results_eq(
  $$ select topic, event, private, extension, payload - 'id' from realtime.messages where topic = 'chat:f2000000-0000-4000-8000-000000000001' $$,
  $$ values ('chat:f2000000-0000-4000-8000-000000000001'::text, 'message'::text, true, 'broadcast'::text,
             '{"chat_id": "f2000000-0000-4000-8000-000000000001", "message_id": "f3000000-0000-4000-8000-000000000001", "role": "user"}'::jsonb) $$,
  'a visitor''s stored turn is announced on the chat''s private topic, with ids only');
select ok((select bool_and(payload ->> 'id' = id::text) from realtime.messages where topic = 'chat:f2000000-0000-4000-8000-000000000001'),
  'realtime.send adds the broadcast''s own id to the payload');

select tests.authenticate_as_service_role();
insert into public.messages (id, chat_id, role, content) values
  ('f3000000-0000-4000-8000-000000000002', 'f2000000-0000-4000-8000-000000000001', 'assistant', 'Hi! How can I help?');
reset role;
select is((select count(*)::int from realtime.messages where topic = 'chat:f2000000-0000-4000-8000-000000000001'), 2,
  'the answer stored by the chat function is announced too');
select ok(not exists (select 1 from realtime.messages where payload::text like '%How can I help%' or payload::text like '%Hello there%'),
  'announcements never carry message text');

-- who may receive the topic (Realtime Authorization: SELECT on realtime.messages under the topic)
create function pg_temp.can_receive(who text, topic text) returns boolean language plpgsql as $$
declare seen boolean;
begin
  if who = 'anon' then perform tests.clear_authentication(); else perform tests.authenticate_as(who); end if;
  perform set_config('realtime.topic', topic, true);
  select exists (select 1 from realtime.messages where realtime.messages.topic = can_receive.topic and extension = 'broadcast') into seen;
  reset role;
  perform set_config('realtime.topic', '', true);
  return seen;
end;
$$;

select ok(pg_temp.can_receive('visitor1', 'chat:f2000000-0000-4000-8000-000000000001'), 'the chat''s visitor receives its topic');
select ok(not pg_temp.can_receive('visitor2', 'chat:f2000000-0000-4000-8000-000000000001'), 'another visitor does not, while it is not shared');
select ok(not pg_temp.can_receive('stranger', 'chat:f2000000-0000-4000-8000-000000000001'), 'a signed-in stranger does not');
select ok(not pg_temp.can_receive('anon', 'chat:f2000000-0000-4000-8000-000000000001'), 'anon does not');
select ok(not pg_temp.can_receive('other', 'chat:f2000000-0000-4000-8000-000000000001'), 'another team does not');
select ok(pg_temp.can_receive('owner', 'chat:f2000000-0000-4000-8000-000000000001'), 'the bot''s team owner does');
select ok(pg_temp.can_receive('admin', 'chat:f2000000-0000-4000-8000-000000000001'), 'the bot''s team admin does');
select ok(pg_temp.can_receive('platform', 'chat:f2000000-0000-4000-8000-000000000001'), 'a platform admin does');

select tests.authenticate_as('visitor1');
update public.chats set shared = true where id = 'f2000000-0000-4000-8000-000000000001';
reset role;
select ok(pg_temp.can_receive('visitor2', 'chat:f2000000-0000-4000-8000-000000000001'), 'once shared, anyone with the link receives its topic');
select ok(not pg_temp.can_receive('anon', 'chat:f2000000-0000-4000-8000-000000000001'), 'anon still does not (visitors always have a session)');

-- a topic that is not a chat, or a malformed one, is nobody's
select tests.authenticate_as_service_role();
select realtime.send('{"x": 1}'::jsonb, 'message', 'chat:not-a-uuid', true);
select realtime.send('{"x": 1}'::jsonb, 'message', 'other:f2000000-0000-4000-8000-000000000001', true);
reset role;
select ok(not pg_temp.can_receive('visitor1', 'chat:not-a-uuid'), 'a malformed chat topic authorises nobody (and raises no error)');
select ok(not pg_temp.can_receive('visitor1', 'other:f2000000-0000-4000-8000-000000000001'), 'the policy covers chat topics only');
select ok(not has_function_privilege('authenticated', 'private.announce_message()', 'execute'), 'clients cannot call the announcing trigger function');

select * from finish();
rollback;
