-- One home per access rule. Until now "the caller's own chat" was written out in the chats
-- policies, in private.is_own_chat and in private.can_view_chat, and "a shared chat the
-- caller may read" in private.shared_chat and private.can_view_chat. Each rule is now one
-- function in `private`, and every policy, RPC and the realtime policy calls it:
--
--   who may use a bot     private.can_chat_with_bot(bot_id)          (20261121001000, unchanged)
--   own chat              private.owns_chat(user_id, bot_id)         a chat row's visitor, while
--                                                                    they may still use its bot
--                         private.is_own_chat(chat_id)               the same, by chat id
--   shared chat           private.can_read_shared_chat(chat_id)      shared, and its bot is not
--                                                                    private to a team the caller
--                                                                    is not in
--   who may view a chat   private.can_view_chat(chat_id)             own, shared, the bot's team
--                                                                    or a platform admin
--
-- Team membership (private.has_bot_role) and platform administrators
-- (private.is_platform_admin) keep their own homes. Policy names stay as they were;
-- behaviour does not change.

-- functions -------------------------------------------------------------------------
create function private.owns_chat(chat_user_id uuid, chat_bot_id uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    owns_chat.chat_user_id = (select auth.uid()) and private.can_chat_with_bot(owns_chat.chat_bot_id),
    false
  );
$$;
comment on function private.owns_chat(uuid, uuid) is
  'The "own chat" rule on a chat row''s values: the caller is its visitor and may still use its bot.';
revoke execute on function private.owns_chat(uuid, uuid) from public, anon;
grant execute on function private.owns_chat(uuid, uuid) to authenticated, service_role;

create or replace function private.is_own_chat(chat_id uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    -- user_id first only narrows (messages of other people's chats skip the call); owns_chat decides.
    (select private.owns_chat(c.user_id, c.bot_id) from public.chats c
     where c.id = is_own_chat.chat_id and c.user_id = (select auth.uid())),
    false
  );
$$;
comment on function private.is_own_chat(uuid) is
  'private.owns_chat for a chat id: is the chat the caller''s own, with a bot the caller may still use?';

create function private.can_read_shared_chat(chat_id uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.chats c
    join public.bots b on b.id = c.bot_id
    where c.id = can_read_shared_chat.chat_id
      and c.shared
      and (b.visibility <> 'private' or private.can_chat_with_bot(b.id))
  );
$$;
comment on function private.can_read_shared_chat(uuid) is
  'Anyone with the link reads a shared chat, unless its bot is private to a team the caller is not in.';
revoke execute on function private.can_read_shared_chat(uuid) from public, anon;
grant execute on function private.can_read_shared_chat(uuid) to authenticated, service_role;

create or replace function private.can_view_chat(chat_id uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.chats c
    where c.id = can_view_chat.chat_id
      and (
        private.owns_chat(c.user_id, c.bot_id)
        or private.has_bot_role(c.bot_id, null)
        or private.is_platform_admin()
        or private.can_read_shared_chat(c.id)
      )
  );
$$;
comment on function private.can_view_chat(uuid) is
  'Who may view a chat: its visitor (private.owns_chat), anyone while it is shared (private.can_read_shared_chat), the bot''s team, platform admins.';

-- The {chat, bot, messages} behind get_shared_chat(): the shared-chat rule decides.
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
                                          'images', m.images, 'created_at', m.created_at) order by m.created_at, m.id)
      from public.messages m where m.chat_id = c.id
    ), '[]'::jsonb)
  )
  from public.chats c
  join public.bots b on b.id = c.bot_id
  where c.id = shared_chat.chat_id
    and private.can_read_shared_chat(c.id);
$$;

-- policies: chats ---------------------------------------------------------------------
-- Same names as in 20261121020000_chats.sql; the rule now comes from private.owns_chat.
-- Where a policy filters many rows (select, update), `user_id = (select auth.uid())` goes
-- first: evaluated once per statement, it spares the function call for other people's
-- rows (a team listing its bots' chats). It only narrows; owns_chat decides.
drop policy "Visitors can read their own chats" on public.chats;
create policy "Visitors can read their own chats" on public.chats
  for select to authenticated
  using (user_id = (select auth.uid()) and (select private.owns_chat(user_id, bot_id)));

drop policy "Visitors can start chats with bots they may use" on public.chats;
create policy "Visitors can start chats with bots they may use" on public.chats
  for insert to authenticated
  with check ((select private.owns_chat(user_id, bot_id)));

drop policy "Visitors can rename and share their own chats" on public.chats;
create policy "Visitors can rename and share their own chats" on public.chats
  for update to authenticated
  using (user_id = (select auth.uid()) and (select private.owns_chat(user_id, bot_id)))
  with check ((select private.owns_chat(user_id, bot_id)));

-- Unchanged and already one call each: the messages and feedback policies use
-- private.is_own_chat, the realtime policy "Chat viewers receive their chat's updates" on
-- realtime.messages uses private.can_view_chat, retrieval (public.match_chunks) uses
-- private.can_chat_with_bot. "Visitors can delete their own chats" deliberately asks only
-- user_id = auth.uid(): a visitor may delete their chats even after losing access to the bot.
