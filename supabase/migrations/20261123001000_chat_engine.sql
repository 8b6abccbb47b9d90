-- The answering engine's database side (supabase/functions/_shared/engine):
--
-- 1. Chats of a channel (Slack, Discord, Telegram, WhatsApp, the HTTP API) carry the platform's
--    conversation ids: the thread or chat id and the external user who started it. Such a chat
--    has no auth user (user_id is null); a chat has a user or an external thread, never neither.
--    One chat per (bot, channel, external thread), so the next message continues it.
-- 2. public.open_chat_turn: creates the chat together with its first turn (or adds the turn to
--    an existing chat) in one transaction, so a refused or failed turn leaves no empty chat.
--    As a visitor (authenticated) RLS decides, as before; channel chats (external ids) only as
--    the service role, which has verified the platform's signature.
-- 3. A bot's per-minute chat budget comes from one function, private.bot_chat_budget, which
--    billing plans will change; it is spent inside open_chat_turn, after RLS accepted the
--    turn, so a refused visitor (no access, or over their own limit) never spends it.

-- 1 tables -------------------------------------------------------------------------------
alter table public.chats
  add column external_thread_id text check (external_thread_id is null or char_length(external_thread_id) between 1 and 300),
  add column external_user_id text check (external_user_id is null or char_length(external_user_id) between 1 and 300);
alter table public.chats alter column user_id drop not null;
alter table public.chats add constraint chats_user_or_external_thread
  check (user_id is not null or external_thread_id is not null);
comment on column public.chats.external_thread_id is
  'A channel chat: the platform''s thread/chat id (Slack thread, Telegram chat, WhatsApp number, API conversation). One chat per bot, channel and thread.';
comment on column public.chats.external_user_id is
  'A channel chat: the platform''s id of the person who started it (user_id is null for channel chats).';
create unique index chats_external_thread_idx on public.chats (bot_id, channel, external_thread_id)
  where external_thread_id is not null;

-- Clients never set the external ids (only the service role opens channel chats).
create function private.protect_chat_external_ids() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') then
    if tg_op = 'INSERT' then
      if new.external_thread_id is not null or new.external_user_id is not null then
        raise exception 'Only channels set a chat''s external ids' using errcode = '42501';
      end if;
    elsif new.external_thread_id is distinct from old.external_thread_id
       or new.external_user_id is distinct from old.external_user_id then
      raise exception 'Only the title and the shared flag of a chat can be changed' using errcode = '42501';
    end if;
  end if;
  return new;
end;
$$;
create trigger protect_chat_external_ids before insert or update on public.chats
  for each row execute function private.protect_chat_external_ids();

-- 3 the bot's budget ------------------------------------------------------------------------
create function private.bot_chat_budget(bot_id uuid) returns integer
language sql
stable
security definer
set search_path = ''
as $$
  -- Every bot gets the same ceiling until billing plans set it per team's plan. A benchmark may
  -- raise it for a whole database: alter database ... set parley.bot_chat_budget = '1000000'.
  select coalesce(nullif(current_setting('parley.bot_chat_budget', true), '')::integer, 600)
  where bot_chat_budget.bot_id is not null;
$$;
comment on function private.bot_chat_budget(uuid) is
  'Answers a bot may give per minute, whoever asks (all visitors and channels together). The plan setting billing will change.';
revoke execute on function private.bot_chat_budget(uuid) from public;
grant execute on function private.bot_chat_budget(uuid) to service_role;

-- Spends one answer of the bot's budget: null while allowed, else the seconds until the window ends.
create function private.spend_bot_chat_budget(bot_id uuid) returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  counter_key text := 'chat:bot:' || spend_bot_chat_budget.bot_id::text;
  budget integer := coalesce(private.bot_chat_budget(spend_bot_chat_budget.bot_id), 600);
begin
  if private.consume_rate_limit(counter_key, budget, 60) then
    return null;
  end if;
  return (select greatest(1, ceil(extract(epoch from (r.window_start + interval '60 seconds' - now())))::integer)
          from private.rate_limits r where r.key = counter_key);
end;
$$;
comment on function private.spend_bot_chat_budget(uuid) is
  'Counts one answer against private.bot_chat_budget(bot_id) per minute: null while allowed, else seconds to wait.';
revoke execute on function private.spend_bot_chat_budget(uuid) from public;
grant execute on function private.spend_bot_chat_budget(uuid) to authenticated, service_role;

-- 2 the turn --------------------------------------------------------------------------------
-- Errors (PostgREST turns PTnnn into HTTP nnn): PT404 chat_not_found / bot_not_found, 42501 when
-- RLS refuses the chat or the turn (no access), PT429 over the bot's budget (detail: seconds),
-- PT401 when the caller's user no longer exists (a deleted user's still-valid token).
create function public.open_chat_turn(
  bot_id uuid,
  content text,
  chat_id uuid default null,
  images jsonb default '[]',
  channel text default 'web',
  external_thread_id text default null,
  external_user_id text default null
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

  -- Only a turn RLS accepted spends the bot's budget; over it, everything above rolls back.
  wait := private.spend_bot_chat_budget(open_chat_turn.bot_id);
  if wait is not null then
    raise exception 'This bot is answering too many messages right now; try again in a minute'
      using errcode = 'PT429', hint = 'rate_limited', detail = wait::text;
  end if;

  return query select the_chat, the_message, is_new;
end;
$$;
comment on function public.open_chat_turn(uuid, text, uuid, jsonb, text, text, text) is
  'Stores a user turn: in the caller''s chat_id, in the channel chat of external_thread_id (service role), or in a new chat created with it. Spends the bot''s per-minute budget. Returns (opened_chat_id, user_message_id, created).';
revoke execute on function public.open_chat_turn(uuid, text, uuid, jsonb, text, text, text) from public, anon;
grant execute on function public.open_chat_turn(uuid, text, uuid, jsonb, text, text, text) to authenticated, service_role;

-- One way for functions to authorise a write: may the caller change this bot and what hangs
-- under it (data sources, jobs, documents, secrets)? The team's admins and owners only; a
-- platform administrator reads teams' data but never writes it.
create function public.can_manage_bot(bot_id uuid) returns boolean
language sql
stable
security invoker
set search_path = ''
as $$
  select private.has_bot_role(can_manage_bot.bot_id, 'admin');
$$;
comment on function public.can_manage_bot(uuid) is
  'Does the caller hold the admin (or owner) role in the bot''s team? Edge functions ask it before writing as the service role.';
revoke execute on function public.can_manage_bot(uuid) from public, anon;
grant execute on function public.can_manage_bot(uuid) to authenticated, service_role;

-- The service side answers for any bot: a channel's receiver (after the platform's signature),
-- the test runner and tasks search the bot's knowledge with match_chunks as the service role,
-- which may use every bot (it bypasses RLS anyway). Otherwise as in 20261121001000.
create or replace function private.can_chat_with_bot(bot_id uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.bots b
    where b.id = can_chat_with_bot.bot_id
      and (
        b.visibility = 'public'
        or (
          b.visibility = 'password'
          and exists (
            select 1 from public.bot_access_grants g
            where g.bot_id = b.id
              and g.user_id = (select auth.uid())
              and (g.expires_at is null or g.expires_at > now())
          )
        )
        or private.has_bot_role(b.id, null)
        or private.is_platform_admin()
        or (select auth.role()) = 'service_role'
      )
  );
$$;
comment on function private.can_chat_with_bot(uuid) is
  'May the caller chat with this bot? public: anyone; password: after a grant; private: its team, platform admins and the service side.';
