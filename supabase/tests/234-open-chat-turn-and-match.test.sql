-- open_chat_turn_and_match (20261130010000): open_chat_turn and match_chunks in one call, as the
-- caller. The turn is stored as open_chat_turn stores it (same refusals), passages are exactly
-- match_chunks' rows in its order, nothing is retrieved for a chat a person has taken over, and a
-- failed retrieval leaves the stored turn and says why.
begin;
select plan(16);

select tests.create_team_fixture();
update public.teams set plan_id = 'business' where slug in ('team-a', 'team-b'); -- plan limits are 510-billing's concern
select tests.create_supabase_user('ocm_visitor');

select tests.authenticate_as_service_role();
insert into public.data_sources (id, bot_id, type, name) values
  ('e8100000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'text', 'Manual');
insert into public.documents (id, data_source_id, bot_id, title, url)
select ('e9100000-0000-0000-0000-' || lpad(d::text, 12, '0'))::uuid, 'e8100000-0000-0000-0000-000000000001',
  tests.bot_id('A gallery'), 'Kettle guide ' || d, 'https://example.com/kettle-' || d
from generate_series(1, 6) d;
insert into public.chunks (document_id, bot_id, position, heading_path, content)
select ('e9100000-0000-0000-0000-' || lpad((1 + n % 6)::text, 12, '0'))::uuid, tests.bot_id('A gallery'), n, 'Guide > Part ' || n,
  'The kettle boils water. ' || case when n % 3 = 0 then 'A copper kettle whistles. ' else 'A steel pot sits. ' end
    || repeat('Tea is served after the kettle. ', 1 + n % 4)
from generate_series(1, 24) n;

-- who may call it ------------------------------------------------------------------------------
reset role;
select ok(not has_function_privilege('anon', 'public.open_chat_turn_and_match(uuid, text, uuid, jsonb, text, text, text, uuid, integer, integer)', 'execute'),
  'anon cannot execute open_chat_turn_and_match');
select ok(has_function_privilege('authenticated', 'public.open_chat_turn_and_match(uuid, text, uuid, jsonb, text, text, text, uuid, integer, integer)', 'execute')
  and has_function_privilege('service_role', 'public.open_chat_turn_and_match(uuid, text, uuid, jsonb, text, text, text, uuid, integer, integer)', 'execute'),
  'signed-in callers and the service side may execute it');
select ok((select not prosecdef from pg_proc where oid = 'public.open_chat_turn_and_match(uuid, text, uuid, jsonb, text, text, text, uuid, integer, integer)'::regprocedure),
  'it is security invoker: RLS and match_chunks'' own check decide as for the caller');

-- a visitor's new chat: the turn stored, the passages match_chunks' ----------------------------
select tests.authenticate_as('ocm_visitor');
create temporary table first_turn on commit drop as
  select * from public.open_chat_turn_and_match(tests.bot_id('A gallery'), 'copper kettle', match_count => 5);
grant select on first_turn to authenticated, service_role;
select results_eq($$ select created, needs_human, history is null, retrieval_error is null from first_turn $$,
  $$ values (true, false, true, true) $$, 'a new chat, as open_chat_turn opens it');
select is((select count(*)::int from public.messages m join first_turn o on m.id = o.user_message_id
           where m.chat_id = o.opened_chat_id and m.role = 'user' and m.content = 'copper kettle'), 1,
  'the user turn is stored in it');
select results_eq($$ select (e.p ->> 'chunk_id')::uuid, e.p ->> 'content', (e.p ->> 'score')::float8
                     from first_turn, jsonb_array_elements(passages) with ordinality as e(p, n) order by e.n $$,
  $$ select chunk_id, content, score from public.match_chunks(tests.bot_id('A gallery'), 'copper kettle', 5) $$,
  'passages are match_chunks'' rows for the text, in its order, with the same scores');
select is((select array(select jsonb_object_keys(passages -> 0) order by 1) from first_turn),
  array['chunk_id', 'content', 'data_source_id', 'document_id', 'document_title', 'document_url', 'heading_path', 'score'],
  'each passage is an object of match_chunks'' columns, as PostgREST gives its rows');
select is((select jsonb_array_length(passages) from first_turn), 5, 'as many as asked for');

-- continued, with history: the same columns as open_chat_turn's ---------------------------------
create temporary table second_turn on commit drop as
  select * from public.open_chat_turn_and_match(tests.bot_id('A gallery'), 'steel pot', (select opened_chat_id from first_turn),
    history_limit => 20, match_count => 3);
grant select on second_turn to authenticated, service_role;
select results_eq($$ select s.opened_chat_id = f.opened_chat_id, s.created, jsonb_array_length(s.history), s.history -> 0 ->> 'content',
                     jsonb_array_length(s.passages) from second_turn s, first_turn f $$,
  $$ values (true, false, 1, 'copper kettle'::text, 3) $$, 'a continued chat returns its history and the passages');
select is((select message_count from public.chats c join first_turn o on c.id = o.opened_chat_id), 2, 'the chat counts both turns');

-- nothing the caller may not search ---------------------------------------------------------------
select throws_ok($$ select * from public.open_chat_turn_and_match(tests.bot_id('A private'), 'kettle') $$, '42501', null,
  'a visitor may not open a chat with a private bot (open_chat_turn''s refusal)');
reset role;
select is((select count(*)::int from public.chats where bot_id = tests.bot_id('A private') and user_id = tests.get_supabase_uid('ocm_visitor')), 0,
  'the refused turn left no chat behind');

-- a chat a person has taken over: stored, nothing retrieved ---------------------------------------
update public.chats set needs_human = true where id = (select opened_chat_id from first_turn);
select tests.authenticate_as('ocm_visitor');
select results_eq($$ select needs_human, passages is null, retrieval_error is null
                     from public.open_chat_turn_and_match(tests.bot_id('A gallery'), 'hello?', (select opened_chat_id from first_turn)) $$,
  $$ values (true, true, true) $$, 'with a person: the turn is stored and nothing retrieved');
reset role;
update public.chats set needs_human = false where id = (select opened_chat_id from first_turn);

-- a failed retrieval leaves the turn stored -------------------------------------------------------
revoke execute on function public.match_chunks(uuid, text, integer) from authenticated;
select tests.authenticate_as('ocm_visitor');
create temporary table failed_turn on commit drop as
  select * from public.open_chat_turn_and_match(tests.bot_id('A gallery'), 'kettle again', (select opened_chat_id from first_turn));
grant select on failed_turn to authenticated, service_role;
select results_eq($$ select passages is null, retrieval_error like '42501: %' from failed_turn $$, $$ values (true, true) $$,
  'retrieval''s error comes back as retrieval_error (sqlstate: message), passages null');
select is((select count(*)::int from public.messages m join failed_turn o on m.id = o.user_message_id where m.content = 'kettle again'), 1,
  'and the turn stays stored');
reset role;
grant execute on function public.match_chunks(uuid, text, integer) to authenticated;

-- a channel's turn, as the service side -------------------------------------------------------------
select tests.authenticate_as_service_role();
select results_eq($$ select created, jsonb_array_length(passages), retrieval_error is null
                     from public.open_chat_turn_and_match(tests.bot_id('A gallery'), 'copper kettle', null, '[]', 'slack', 'C9:1', 'U9', match_count => 4) $$,
  $$ values (true, 4, true) $$, 'a channel turn by external ids retrieves as the service side');

select * from finish();
rollback;
