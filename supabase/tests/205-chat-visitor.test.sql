-- chats.visitor: what the host site said about a widget visitor (Parley.identify). The visitor
-- writes it on their own chat only; its shape is checked whatever a client sends; the bot's
-- team reads it, other visitors and teams do not.
begin;
select plan(13);
select tests.create_team_fixture();
select tests.create_supabase_user('visitor1');
select tests.create_supabase_user('visitor2');

select tests.authenticate_as('visitor1');
insert into public.chats (id, bot_id, channel) values ('f0000000-0000-0000-0000-0000000000a1', tests.bot_id('A gallery'), 'widget');
select lives_ok($$ update public.chats set visitor = '{"name": "Ada Lovelace", "email": "ada@example.com", "plan": "pro", "seats": 3, "vip": true}'
  where id = 'f0000000-0000-0000-0000-0000000000a1' $$, 'a visitor stores who the site says they are on their own chat');
select is((select visitor ->> 'email' from public.chats where id = 'f0000000-0000-0000-0000-0000000000a1'), 'ada@example.com',
  'and reads it back');
select throws_ok($$ update public.chats set visitor = '["ada"]' where id = 'f0000000-0000-0000-0000-0000000000a1' $$,
  '23514', null, 'an array is refused');
select throws_ok($$ update public.chats set visitor = '{"profile": {"name": "Ada"}}' where id = 'f0000000-0000-0000-0000-0000000000a1' $$,
  '23514', null, 'a nested object is refused');
select throws_ok($$ update public.chats set visitor = '{"<script>": "x"}' where id = 'f0000000-0000-0000-0000-0000000000a1' $$,
  '23514', null, 'a key that is not a plain name is refused');
select throws_ok(format($$ update public.chats set visitor = %L where id = 'f0000000-0000-0000-0000-0000000000a1' $$,
  jsonb_build_object('name', repeat('a', 201))), '23514', null, 'a value over 200 characters is refused');
select throws_ok(format($$ update public.chats set visitor = %L where id = 'f0000000-0000-0000-0000-0000000000a1' $$,
  (select jsonb_object_agg('k' || i, i) from generate_series(1, 21) i)), '23514', null, 'more than 20 keys are refused');
select throws_ok($$ update public.chats set visitor = '{}' where id = 'f0000000-0000-0000-0000-0000000000a1' $$,
  '23514', null, 'an empty object is refused (null clears it)');
select lives_ok($$ update public.chats set visitor = null where id = 'f0000000-0000-0000-0000-0000000000a1' $$, 'null clears it');
update public.chats set visitor = '{"name": "Ada Lovelace"}' where id = 'f0000000-0000-0000-0000-0000000000a1';

select tests.authenticate_as('visitor2');
select is_empty($$ update public.chats set visitor = '{"name": "Mallory"}' where id = 'f0000000-0000-0000-0000-0000000000a1' returning id $$,
  'another visitor cannot change it');
select tests.authenticate_as('owner');
select is((select visitor ->> 'name' from public.chats where id = 'f0000000-0000-0000-0000-0000000000a1'), 'Ada Lovelace',
  'the bot''s team reads it (unchanged by the other visitor)');
select is_empty($$ update public.chats set visitor = '{"name": "Owner"}' where id = 'f0000000-0000-0000-0000-0000000000a1' returning id $$,
  'the team does not write it (it is the site''s word through the visitor)');
select tests.authenticate_as('other');
select is_empty($$ select visitor from public.chats where id = 'f0000000-0000-0000-0000-0000000000a1' $$,
  'another team reads nothing');

select * from finish();
rollback;
