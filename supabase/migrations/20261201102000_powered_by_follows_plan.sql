-- "Powered by Parley" hidden on a plan that allows it (powered_by_removable) stayed hidden after
-- the team moved to a plan that does not: the limit is checked only when show_powered_by changes,
-- and the functions that give visitors the bot returned the stored value. Visitors now get the
-- effective value: shown when the bot shows it or the team's plan does not let it be removed. The
-- owner's choice is kept, so moving back to a plan that allows it hides the line again.
-- Every function that returns show_powered_by to visitors: get_public_bot (the chat page, the
-- widget, the transcript) and private.shared_chat (get_shared_chat). A migration replaces a
-- function whole: these are 20261128050100_get_public_bot_for_team's and 20261128040000_power_ups_live's.
create function private.shows_powered_by(team_id uuid, show_powered_by boolean) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select case when shows_powered_by.show_powered_by then true
              else coalesce(private.plan_limit(shows_powered_by.team_id, 'powered_by_removable') = 0, false) end;
$$;
comment on function private.shows_powered_by(uuid, boolean) is
  'What visitors see of a bot''s "powered by" line: its show_powered_by, or true when the team''s plan does not allow removing it (powered_by_removable).';
revoke execute on function private.shows_powered_by(uuid, boolean) from public;

create or replace function public.get_public_bot(bot_id uuid)
returns table (
  id uuid, name text, description text, avatar_url text, language public.language_code,
  visibility public.bot_visibility, suggested_questions text[], show_powered_by boolean, theme jsonb
)
language sql
stable
security definer
set search_path = ''
as $$
  select b.id, b.name, b.description, b.avatar_url, b.language,
         b.visibility, b.suggested_questions, private.shows_powered_by(b.team_id, b.show_powered_by), b.theme
  from public.bots b
  where b.id = get_public_bot.bot_id
    and (b.visibility <> 'private' or (select private.can_chat_with_bot(b.id)));
$$;
comment on function public.get_public_bot(uuid) is
  'Anyone: the visitor-facing fields of a public or password-protected bot, by id (show_powered_by as visitors see it: forced on when the team''s plan does not allow removing it); a private bot only for those who may chat with it (its team, platform administrators).';

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
                              'show_powered_by', private.shows_powered_by(b.team_id, b.show_powered_by), 'theme', b.theme),
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
  'The {chat, bot (show_powered_by as visitors see it), messages (with the actions their visitor saw)} of a shared chat, or null.';
