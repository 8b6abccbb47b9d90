-- The chat page of a private bot works for those who may chat with it (issue 15: "a private chat
-- with one of the owner's bots"). private.can_chat_with_bot already lets a bot's team and the
-- platform administrators chat with a private bot (the chat function accepts them), but the chat
-- page reads the bot's face through get_public_bot, which refused every private bot, so the page
-- said "not found" to the bot's own team. Anyone else still gets nothing for a private bot.
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
         b.visibility, b.suggested_questions, b.show_powered_by, b.theme
  from public.bots b
  where b.id = get_public_bot.bot_id
    and (b.visibility <> 'private' or (select private.can_chat_with_bot(b.id)));
$$;
comment on function public.get_public_bot(uuid) is
  'Anyone: the visitor-facing fields of a public or password-protected bot, by id; a private bot only for those who may chat with it (its team, platform administrators).';
