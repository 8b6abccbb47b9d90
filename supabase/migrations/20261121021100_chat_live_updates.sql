-- Live chats for their viewers: every stored turn is announced on the private
-- Realtime broadcast topic `chat:<chat id>`, so a visitor's other tabs and the readers of
-- a shared chat see new turns without reloading. (Owners follow their bots' messages
-- through postgres_changes under the messages policies; a shared chat's readers cannot,
-- since shared chats are read through get_shared_chat(), not through row policies that
-- would make every shared chat listable.)
--
-- The announcement carries ids only ({chat_id, message_id, role}); the viewer then reads
-- the chat the way it may (its own chat through RLS, a shared one through
-- get_shared_chat()). Receiving is authorised per topic by a policy on realtime.messages,
-- as Supabase Realtime Authorization does for private channels: whoever may view the chat.

-- May the caller view this chat? Its owner (while they may use the bot), anyone when it is
-- shared (unless its bot is private to a team they are not in), the bot's team, platform admins.
create function private.can_view_chat(chat_id uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.chats c
    join public.bots b on b.id = c.bot_id
    where c.id = can_view_chat.chat_id
      and (
        (c.user_id = (select auth.uid()) and private.can_chat_with_bot(c.bot_id))
        or (c.shared and (b.visibility <> 'private' or private.can_chat_with_bot(b.id)))
        or private.has_bot_role(c.bot_id, null)
        or private.is_platform_admin()
      )
  );
$$;
comment on function private.can_view_chat(uuid) is 'Own chat, shared chat, the bot''s team or a platform admin: may the caller view the chat?';
revoke execute on function private.can_view_chat(uuid) from public, anon;
grant execute on function private.can_view_chat(uuid) to authenticated, service_role;

-- The chat a realtime topic `chat:<uuid>` names, or null for any other topic.
create function private.chat_topic_id(topic text) returns uuid
language sql
immutable
set search_path = ''
as $$
  select case
    when topic ~ '^chat:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then substr(topic, 6)::uuid
  end;
$$;
comment on function private.chat_topic_id(text) is 'The chat id of a realtime topic chat:<uuid>, null for other topics.';
revoke execute on function private.chat_topic_id(text) from public, anon;
grant execute on function private.chat_topic_id(text) to authenticated, service_role;

create policy "Chat viewers receive their chat's updates" on realtime.messages
  for select to authenticated
  using (
    extension = 'broadcast'
    and (select private.can_view_chat(private.chat_topic_id((select realtime.topic()))))
  );

-- Security definer: realtime.messages takes no inserts from client roles; the visitor's
-- own turn is inserted with their token.
create function private.announce_message() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform realtime.send(
    jsonb_build_object('chat_id', new.chat_id, 'message_id', new.id, 'role', new.role),
    'message',
    'chat:' || new.chat_id::text,
    true
  );
  return null;
end;
$$;
comment on function private.announce_message() is 'After a message is stored: broadcast {chat_id, message_id, role} on the private topic chat:<chat id>.';
revoke execute on function private.announce_message() from public, anon, authenticated;

create trigger announce_message after insert on public.messages
  for each row execute function private.announce_message();
