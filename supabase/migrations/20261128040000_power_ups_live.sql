-- Power-ups, the rest of issue 19: what a shared chat shows of them, live calls for the team and
-- the count of chats waiting for a person.
--
--   * get_shared_chat() returns each message's `actions` (the tool lines, lead form, link button
--     and handoff notice the visitor saw), rebuilt key by key from what the engine shows the
--     visitor (private.visitor_actions), so nothing else stored in messages.actions ever reaches
--     a reader of the link. Calls (arguments, requests, results) stay the team's: power_up_calls.
--   * power_up_calls is published to realtime: the engine writes a call as it runs it (the answer's
--     message id follows once the answer is stored), and the team's conversation view shows it
--     live, under the table's select policies.
--   * chats_waiting_for_human(team_id): how many of the team's chats wait for a person (handed to
--     the team and the visitor's latest turn not yet answered by a person), for the app's nav badge.

-- functions -------------------------------------------------------------------------------------
-- What the visitor was shown, and nothing more: known action types with their known keys.
create function private.visitor_actions(actions jsonb) returns jsonb
language sql
immutable
set search_path = ''
as $$
  select coalesce(jsonb_agg(kept order by ord), '[]'::jsonb)
  from (
    select e.ord, case e.a ->> 'type'
      when 'tool' then jsonb_strip_nulls(jsonb_build_object(
        'type', 'tool', 'name', e.a -> 'name', 'label', e.a -> 'label', 'ok', e.a -> 'ok', 'message', e.a -> 'message'))
      when 'lead_form' then jsonb_strip_nulls(jsonb_build_object(
        'type', 'lead_form', 'power_up_id', e.a -> 'power_up_id', 'label', e.a -> 'label', 'intro', e.a -> 'intro',
        'fields', e.a -> 'fields', 'required', e.a -> 'required'))
      when 'link' then jsonb_strip_nulls(jsonb_build_object(
        'type', 'link', 'power_up_id', e.a -> 'power_up_id', 'label', e.a -> 'label', 'url', e.a -> 'url'))
      when 'handoff' then jsonb_strip_nulls(jsonb_build_object('type', 'handoff', 'text', e.a -> 'text'))
    end as kept
    from jsonb_array_elements(case when jsonb_typeof(visitor_actions.actions) = 'array' then visitor_actions.actions else '[]'::jsonb end)
      with ordinality as e(a, ord)
    where jsonb_typeof(e.a) = 'object'
  ) x
  where kept is not null;
$$;
comment on function private.visitor_actions(jsonb) is
  'The actions of a message as its visitor saw them (tool: name, label, ok, message; lead_form: power_up_id, label, intro, fields, required; link: power_up_id, label, url; handoff: text); other entries and keys dropped.';
revoke execute on function private.visitor_actions(jsonb) from public, anon;
grant execute on function private.visitor_actions(jsonb) to authenticated, service_role;

-- The {chat, bot, messages} behind get_shared_chat(), now with each message's actions.
create or replace function private.shared_chat(chat_id uuid) returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'chat', jsonb_build_object('id', c.id, 'bot_id', c.bot_id, 'title', c.title, 'channel', c.channel,
                               'created_at', c.created_at, 'last_message_at', c.last_message_at),
    'bot', jsonb_build_object('id', b.id, 'name', b.name, 'avatar_url', b.avatar_url, 'language', b.language,
                              'show_powered_by', b.show_powered_by, 'theme', b.theme),
    'messages', coalesce((
      select jsonb_agg(jsonb_build_object('id', m.id, 'role', m.role, 'content', m.content, 'sources', m.sources,
                                          'images', m.images, 'actions', private.visitor_actions(m.actions),
                                          'created_at', m.created_at) order by m.created_at, m.id)
      from public.messages m where m.chat_id = c.id
    ), '[]'::jsonb)
  )
  from public.chats c
  join public.bots b on b.id = c.bot_id
  where c.id = shared_chat.chat_id
    and private.can_read_shared_chat(c.id);
$$;
comment on function private.shared_chat(uuid) is
  'The {chat, bot, messages (with the actions their visitor saw)} of a shared chat, or null.';

-- Security definer: one membership check, then a count over the team's bots (the partial index
-- chats_needs_human_idx), instead of the chats policies evaluated row by row.
create function private.chats_waiting_for_human(team_id uuid) returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select case when not private.has_team_role(chats_waiting_for_human.team_id, null) then 0 else (
    select count(*)::int
    from public.bots b
    join public.chats c on c.bot_id = b.id and c.needs_human
    where b.team_id = chats_waiting_for_human.team_id
      -- answered: a person of the team replied at or after the visitor's latest turn
      and not exists (
        select 1 from public.messages h
        where h.chat_id = c.id and h.role = 'human'
          and h.created_at >= coalesce(
            (select max(u.created_at) from public.messages u where u.chat_id = c.id and u.role = 'user'),
            c.handoff_requested_at, '-infinity'::timestamptz)
      )
  ) end;
$$;
comment on function private.chats_waiting_for_human(uuid) is
  'How many chats of the team''s bots are with a person and not yet answered by one since the visitor last wrote. 0 for non-members.';
revoke execute on function private.chats_waiting_for_human(uuid) from public, anon;
grant execute on function private.chats_waiting_for_human(uuid) to authenticated, service_role;

create function public.chats_waiting_for_human(team_id uuid) returns integer
language sql
stable
security invoker
set search_path = ''
as $$
  select private.chats_waiting_for_human(chats_waiting_for_human.team_id);
$$;
comment on function public.chats_waiting_for_human(uuid) is 'See private.chats_waiting_for_human (the app nav''s badge).';
revoke execute on function public.chats_waiting_for_human(uuid) from public, anon;
grant execute on function public.chats_waiting_for_human(uuid) to authenticated, service_role;

-- realtime ----------------------------------------------------------------------------------------
-- The team's conversation view follows calls as the engine makes them (select policies decide who
-- receives a row, as for messages).
alter publication supabase_realtime add table public.power_up_calls;
