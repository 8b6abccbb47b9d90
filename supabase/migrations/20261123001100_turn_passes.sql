-- A visitor's turn spends the bot's per-minute budget only when the answering engine vouches
-- for it (issue 13: limits a stranger cannot turn against an owner).
--
-- Before: public.open_chat_turn spent the budget for every turn RLS accepted, and signed-in users
-- (anonymous visitors too) may call it over REST directly, skipping the chat function's
-- per-visitor and per-address limits, so a handful of anonymous sessions could still use up a
-- bot's budget. Now the engine (service role), after the visitor's and the address's limits,
-- issues a one-time pass (public.issue_chat_turn_pass, service role only); open_chat_turn spends
-- the budget when it consumes that pass (the caller's own, for this bot, unexpired) or when the
-- service side opens a channel turn. A direct call without a pass still stores the turn (bounded
-- by the database's per-user insert limits, as direct inserts of chats and messages are) and
-- spends nothing of the owner's budget.

-- 1 passes ----------------------------------------------------------------------------------
create table private.chat_turn_passes (
  id uuid primary key default gen_random_uuid(),
  bot_id uuid not null,
  user_id uuid not null,
  expires_at timestamptz not null default now() + interval '1 minute'
);
comment on table private.chat_turn_passes is
  'One-time passes the answering engine issues to a visitor''s turn after the visitor''s and the address''s limits; open_chat_turn consumes one to spend the bot''s budget. No foreign keys: a pass lives a minute.';
create index chat_turn_passes_expires_at_idx on private.chat_turn_passes (expires_at);
alter table private.chat_turn_passes enable row level security;
-- No policies: only the security-definer functions below touch it.

create function public.issue_chat_turn_pass(bot_id uuid, user_id uuid) returns uuid
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  pass uuid;
begin
  delete from private.chat_turn_passes p where p.expires_at < now();
  insert into private.chat_turn_passes (bot_id, user_id)
  values (issue_chat_turn_pass.bot_id, issue_chat_turn_pass.user_id)
  returning id into pass;
  return pass;
end;
$$;
comment on function public.issue_chat_turn_pass(uuid, uuid) is
  'Service role only: a one-time pass (valid a minute) for one visitor turn with this bot, issued by the answering engine after the visitor''s own limits.';
revoke execute on function public.issue_chat_turn_pass(uuid, uuid) from public, anon, authenticated;
grant execute on function public.issue_chat_turn_pass(uuid, uuid) to service_role;

create function private.consume_chat_turn_pass(pass uuid, bot_id uuid) returns boolean
language sql
volatile
security definer
set search_path = ''
as $$
  with used as (
    delete from private.chat_turn_passes p
    where p.id = consume_chat_turn_pass.pass
      and p.bot_id = consume_chat_turn_pass.bot_id
      and p.user_id = (select auth.uid())
      and p.expires_at > now()
    returning 1
  )
  select exists (select 1 from used);
$$;
comment on function private.consume_chat_turn_pass(uuid, uuid) is
  'Uses up the caller''s pass for this bot: true when it existed and was unexpired.';
revoke execute on function private.consume_chat_turn_pass(uuid, uuid) from public;
grant execute on function private.consume_chat_turn_pass(uuid, uuid) to authenticated, service_role;

-- 2 the turn --------------------------------------------------------------------------------
drop function public.open_chat_turn(uuid, text, uuid, jsonb, text, text, text);
create function public.open_chat_turn(
  bot_id uuid,
  content text,
  chat_id uuid default null,
  images jsonb default '[]',
  channel text default 'web',
  external_thread_id text default null,
  external_user_id text default null,
  turn_pass uuid default null
) returns table (opened_chat_id uuid, user_message_id uuid, created boolean)
language plpgsql
volatile
security invoker
set search_path = ''
as $$
#variable_conflict use_column
declare
  the_chat uuid := open_chat_turn.chat_id;
  is_new boolean := false;
  the_message uuid := gen_random_uuid();
  wait integer;
begin
  if open_chat_turn.external_thread_id is not null then
    -- A channel's conversation: only the service side, after checking the platform's signature.
    if (select auth.role()) is distinct from 'service_role' then
      raise exception 'Only channels open chats by external ids' using errcode = '42501';
    end if;
    if not exists (select 1 from public.bots b where b.id = open_chat_turn.bot_id) then
      raise exception 'Bot not found' using errcode = 'PT404', hint = 'bot_not_found';
    end if;
    select c.id into the_chat from public.chats c
    where c.bot_id = open_chat_turn.bot_id and c.channel = open_chat_turn.channel
      and c.external_thread_id = open_chat_turn.external_thread_id;
    if the_chat is null then
      insert into public.chats as c (bot_id, user_id, channel, external_thread_id, external_user_id)
      values (open_chat_turn.bot_id, null, open_chat_turn.channel, open_chat_turn.external_thread_id,
              open_chat_turn.external_user_id)
      on conflict (bot_id, channel, external_thread_id) where external_thread_id is not null do nothing
      returning c.id into the_chat;
      is_new := the_chat is not null;
      if the_chat is null then
        -- Another message of the same conversation created it a moment ago.
        select c.id into the_chat from public.chats c
        where c.bot_id = open_chat_turn.bot_id and c.channel = open_chat_turn.channel
          and c.external_thread_id = open_chat_turn.external_thread_id;
      end if;
    end if;
  elsif the_chat is not null then
    -- A visitor's own chat with this bot (RLS: their own, while they may still use the bot).
    if not exists (
      select 1 from public.chats c
      where c.id = the_chat and c.bot_id = open_chat_turn.bot_id and c.user_id = (select auth.uid())
    ) then
      raise exception 'Chat not found' using errcode = 'PT404', hint = 'chat_not_found';
    end if;
  else
    if (select auth.uid()) is null then
      raise exception 'Sign in (an anonymous session is enough) to chat' using errcode = 'PT401', hint = 'session_required';
    end if;
    the_chat := gen_random_uuid();
    is_new := true;
    begin
      insert into public.chats (id, bot_id, channel) values (the_chat, open_chat_turn.bot_id, open_chat_turn.channel);
    exception when foreign_key_violation then
      -- The token is still valid but its user was deleted (or the bot is gone: then RLS refused first).
      raise exception 'Your session is not valid. Sign in again.' using errcode = 'PT401', hint = 'session_required';
    end;
  end if;

  insert into public.messages (id, chat_id, role, content, images)
  values (the_message, the_chat, 'user', open_chat_turn.content, coalesce(open_chat_turn.images, '[]'));

  -- Only a turn RLS accepted spends the bot's budget, and only when the service side opens it
  -- (a channel) or the answering engine vouched for it with a pass after the visitor's own
  -- limits. Over the budget, everything above rolls back.
  if (select auth.role()) = 'service_role'
     or private.consume_chat_turn_pass(open_chat_turn.turn_pass, open_chat_turn.bot_id) then
    wait := private.spend_bot_chat_budget(open_chat_turn.bot_id);
  end if;
  if wait is not null then
    raise exception 'This bot is answering too many messages right now; try again in a minute'
      using errcode = 'PT429', hint = 'rate_limited', detail = wait::text;
  end if;

  return query select the_chat, the_message, is_new;
end;
$$;
comment on function public.open_chat_turn(uuid, text, uuid, jsonb, text, text, text, uuid) is
  'Stores a user turn: in the caller''s chat_id, in the channel chat of external_thread_id (service role), or in a new chat created with it. Spends the bot''s per-minute budget for channel turns and for visitor turns that carry the engine''s pass. Returns (opened_chat_id, user_message_id, created).';
revoke execute on function public.open_chat_turn(uuid, text, uuid, jsonb, text, text, text, uuid) from public, anon;
grant execute on function public.open_chat_turn(uuid, text, uuid, jsonb, text, text, text, uuid) to authenticated, service_role;
