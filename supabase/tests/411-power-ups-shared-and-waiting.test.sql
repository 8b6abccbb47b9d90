-- Power-ups in a shared chat (the actions its visitor saw, nothing else), power_up_calls on
-- realtime, and chats_waiting_for_human (the app nav's badge): every role.
begin;
select plan(24);
select tests.create_team_fixture();
select tests.create_supabase_user('visitor1');

-- A visitor's chat with one answer that showed every kind of action. The engine (service role)
-- writes the answer; one entry carries keys and a type the visitor was never shown.
select tests.authenticate_as_service_role();
insert into public.power_ups (id, bot_id, type, name, settings) values
  ('21111111-0000-4000-8000-000000000001', tests.bot_id('A gallery'), 'http', 'lookup_order', '{"method": "GET", "url": "https://shop.example.com/{{id}}"}');
insert into public.chats (id, bot_id, user_id, title, shared) values
  ('21111111-0000-4000-8000-0000000000c1', tests.bot_id('A gallery'), tests.get_supabase_uid('visitor1'), 'Order', false);
insert into public.messages (id, chat_id, bot_id, role, content, created_at) values
  ('21111111-0000-4000-8000-0000000000a1', '21111111-0000-4000-8000-0000000000c1', tests.bot_id('A gallery'), 'user', 'Where is A-1?', now() - interval '3 minutes');
insert into public.messages (id, chat_id, bot_id, role, content, actions, created_at) values
  ('21111111-0000-4000-8000-0000000000a2', '21111111-0000-4000-8000-0000000000c1', tests.bot_id('A gallery'), 'assistant', 'It has shipped.',
   '[{"type": "tool", "name": "lookup_order", "label": "Looked up your order", "ok": true, "request": {"headers": {"Authorization": "Bearer s3cret"}}},
     {"type": "link", "power_up_id": "p1", "label": "Book", "url": "https://cal.example.com/x", "internal": "no"},
     {"type": "lead_form", "power_up_id": "p2", "label": "Contact", "intro": null, "fields": ["email"], "required": ["email"], "leads": [{"email": "someone@else.io"}]},
     {"type": "handoff", "text": "A person will answer."},
     {"type": "debug", "trace": "engine internals"},
     "not an object"]',
   now() - interval '2 minutes');
insert into public.power_up_calls (power_up_id, bot_id, chat_id, message_id, name, arguments, status, request, result)
values ('21111111-0000-4000-8000-000000000001', tests.bot_id('A gallery'), '21111111-0000-4000-8000-0000000000c1',
        '21111111-0000-4000-8000-0000000000a2', 'lookup_order', '{"id": "A-1"}', 'ok',
        '{"method": "GET", "url": "https://shop.example.com/A-1", "headers": {"Authorization": "Bearer ••••••"}}', '{"status":"shipped","internal":"x"}');

-- shared chat: the actions the visitor saw ------------------------------------------------------------
select tests.authenticate_as('stranger');
select is(public.get_shared_chat('21111111-0000-4000-8000-0000000000c1'), null, 'an unshared chat shows nothing, actions included');
select tests.authenticate_as('visitor1');
update public.chats set shared = true where id = '21111111-0000-4000-8000-0000000000c1';
select tests.authenticate_as('stranger');
select is(
  (select m -> 'actions' from jsonb_array_elements(public.get_shared_chat('21111111-0000-4000-8000-0000000000c1') -> 'messages') m
   where m ->> 'role' = 'assistant'),
  '[{"type": "tool", "name": "lookup_order", "label": "Looked up your order", "ok": true},
    {"type": "link", "power_up_id": "p1", "label": "Book", "url": "https://cal.example.com/x"},
    {"type": "lead_form", "power_up_id": "p2", "label": "Contact", "fields": ["email"], "required": ["email"]},
    {"type": "handoff", "text": "A person will answer."}]'::jsonb,
  'a reader of the link sees the tool line, link, lead form and handoff the visitor saw, with only their visitor keys');
select is(
  (select m -> 'actions' from jsonb_array_elements(public.get_shared_chat('21111111-0000-4000-8000-0000000000c1') -> 'messages') m
   where m ->> 'role' = 'user'),
  '[]'::jsonb, 'a visitor''s turn has no actions');
select unalike(public.get_shared_chat('21111111-0000-4000-8000-0000000000c1')::text, '%s3cret%',
  'no secret stored by mistake in an action reaches the reader');
select unalike(public.get_shared_chat('21111111-0000-4000-8000-0000000000c1')::text, '%someone@else.io%',
  'nor data the visitor never saw');
select unalike(public.get_shared_chat('21111111-0000-4000-8000-0000000000c1')::text, '%"shipped","internal"%',
  'nor the call''s result as the team sees it');
select is((select count(*)::int from public.power_up_calls), 0, 'the reader of a shared chat reads none of its calls');
select tests.authenticate_as('visitor1');
select is((select count(*)::int from public.power_up_calls), 0, 'nor does its visitor');
select is(jsonb_array_length((select m -> 'actions' from jsonb_array_elements(public.get_shared_chat('21111111-0000-4000-8000-0000000000c1') -> 'messages') m
  where m ->> 'role' = 'assistant')), 4, 'the visitor reads the same actions through the link');
select tests.authenticate_as('admin');
select is((select count(*)::int from public.power_up_calls where chat_id = '21111111-0000-4000-8000-0000000000c1'), 1,
  'the team reads the call in full');
select is(private.visitor_actions('{"not": "an array"}'), '[]'::jsonb, 'actions that are not a list show nothing');

-- realtime: the team's conversation view follows calls ------------------------------------------------
select ok(exists (select 1 from pg_publication_tables where pubname = 'supabase_realtime' and schemaname = 'public' and tablename = 'power_up_calls'),
  'power_up_calls is published to realtime');

-- chats_waiting_for_human ---------------------------------------------------------------------------
select tests.authenticate_as_service_role();
select public.request_handoff('21111111-0000-4000-8000-0000000000c1');
select tests.authenticate_as('owner');
select is(public.chats_waiting_for_human(tests.team_id('team-a')), 1, 'an owner counts the chat waiting for a person');
select tests.authenticate_as('admin');
select is(public.chats_waiting_for_human(tests.team_id('team-a')), 1, 'so does an admin');
select isnt(public.reply_as_human('21111111-0000-4000-8000-0000000000c1', 'Adam here.'), null, 'an admin answers');
select is(public.chats_waiting_for_human(tests.team_id('team-a')), 0, 'an answered chat waits no more, though still with a person');
select is((select needs_human from public.chats where id = '21111111-0000-4000-8000-0000000000c1'), true, '(it is still with a person)');
-- The visitor writes again later (the engine stores the turn; in one transaction now() stands still).
select tests.authenticate_as_service_role();
insert into public.messages (chat_id, bot_id, role, content, created_at) values
  ('21111111-0000-4000-8000-0000000000c1', tests.bot_id('A gallery'), 'user', 'Thanks, one more thing', now() + interval '1 minute');
select tests.authenticate_as('owner');
select is(public.chats_waiting_for_human(tests.team_id('team-a')), 1, 'a new visitor turn after the reply waits again');
select tests.authenticate_as('other');
select is(public.chats_waiting_for_human(tests.team_id('team-a')), 0, 'another team counts nothing of team A');
select tests.authenticate_as('visitor1');
select is(public.chats_waiting_for_human(tests.team_id('team-a')), 0, 'a visitor counts nothing');
select tests.authenticate_as('platform');
select is(public.chats_waiting_for_human(tests.team_id('team-a')), 0, 'the badge is a member''s: a platform admin outside the team counts nothing');
select tests.clear_authentication();
select throws_ok($$ select public.chats_waiting_for_human(tests.team_id('team-a')) $$, '42501', null, 'anon may not ask');
select tests.authenticate_as('owner');
select lives_ok($$ select public.hand_back_chat('21111111-0000-4000-8000-0000000000c1') $$, 'the owner hands the chat back');
select is(public.chats_waiting_for_human(tests.team_id('team-a')), 0, 'a chat handed back waits no more');

select * from finish();
rollback;
