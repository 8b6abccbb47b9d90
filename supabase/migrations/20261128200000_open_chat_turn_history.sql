-- Issue 17 (200 visitors at once): fewer round trips for a continued chat.
--
-- Before, a visitor's message in an existing chat made six PostgREST requests: start_chat_turn,
-- open_chat_turn, beside it the chat's history (a select on messages as the visitor) and its
-- handoff state (chats.needs_human, as the service role), retrieval, and the answer. Under many
-- visitors at once every request costs CPU in the gateway, PostgREST, Postgres (a transaction,
-- the role and claims set) and Deno, on the same cores as retrieval. open_chat_turn already reads
-- the chat to check it is the caller's: it now also returns whether a person has taken the chat
-- over (needs_human) and, with history_limit > 0, the chat's latest history_limit turns before
-- this one (newest first, as the caller: RLS decides, as the separate read did), so the engine
-- makes four requests for every message.
--
-- Same behaviour otherwise: same access checks and errors in the same order, the same budget
-- spending; history_limit defaults to 0 (no history, null), so existing callers see the same
-- columns plus two.

drop function public.open_chat_turn(uuid, text, uuid, jsonb, text, text, text, uuid);
create function public.open_chat_turn(
  bot_id uuid,
  content text,
  chat_id uuid default null,
  images jsonb default '[]',
  channel text default 'web',
  external_thread_id text default null,
  external_user_id text default null,
  turn_pass uuid default null,
  history_limit integer default 0
) returns table (opened_chat_id uuid, user_message_id uuid, created boolean, needs_human boolean, history jsonb)
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
  with_human boolean := false;
  earlier jsonb;
begin
  if open_chat_turn.history_limit is not null and open_chat_turn.history_limit not between 0 and 100 then
    raise exception 'history_limit must be between 0 and 100' using errcode = '22023';
  end if;
  if open_chat_turn.external_thread_id is not null then
    -- A channel's conversation: only the service side, after checking the platform's signature.
    if (select auth.role()) is distinct from 'service_role' then
      raise exception 'Only channels open chats by external ids' using errcode = '42501';
    end if;
    if not exists (select 1 from public.bots b where b.id = open_chat_turn.bot_id) then
      raise exception 'Bot not found' using errcode = 'PT404', hint = 'bot_not_found';
    end if;
    select c.id, c.needs_human into the_chat, with_human from public.chats c
    where c.bot_id = open_chat_turn.bot_id and c.channel = open_chat_turn.channel
      and c.external_thread_id = open_chat_turn.external_thread_id;
    if the_chat is null then
      insert into public.chats as c (bot_id, user_id, channel, external_thread_id, external_user_id)
      values (open_chat_turn.bot_id, null, open_chat_turn.channel, open_chat_turn.external_thread_id,
              open_chat_turn.external_user_id)
      on conflict (bot_id, channel, external_thread_id) where external_thread_id is not null do nothing
      returning c.id into the_chat;
      is_new := the_chat is not null;
      with_human := false;
      if the_chat is null then
        -- Another message of the same conversation created it a moment ago.
        select c.id, c.needs_human into the_chat, with_human from public.chats c
        where c.bot_id = open_chat_turn.bot_id and c.channel = open_chat_turn.channel
          and c.external_thread_id = open_chat_turn.external_thread_id;
      end if;
    end if;
  elsif the_chat is not null then
    -- A visitor's own chat with this bot (RLS: their own, while they may still use the bot).
    select c.needs_human into with_human from public.chats c
    where c.id = the_chat and c.bot_id = open_chat_turn.bot_id and c.user_id = (select auth.uid());
    if not found then
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

  -- The chat's earlier turns (before this one), newest first, as the caller reads them.
  if not is_new and coalesce(open_chat_turn.history_limit, 0) > 0 then
    select coalesce(jsonb_agg(jsonb_build_object('id', m.id, 'role', m.role, 'content', m.content, 'error', m.error)
                              order by m.created_at desc), '[]')
    into earlier
    from (
      select m.id, m.role, m.content, m.error, m.created_at from public.messages m
      where m.chat_id = the_chat
      order by m.created_at desc
      limit open_chat_turn.history_limit
    ) m;
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

  return query select the_chat, the_message, is_new, coalesce(with_human, false), earlier;
end;
$$;
comment on function public.open_chat_turn(uuid, text, uuid, jsonb, text, text, text, uuid, integer) is
  'Stores a user turn: in the caller''s chat_id, in the channel chat of external_thread_id (service role), or in a new chat created with it. Spends the bot''s per-minute budget for channel turns and for visitor turns that carry the engine''s pass. Returns (opened_chat_id, user_message_id, created, needs_human: a person has taken the chat over, history: with history_limit > 0 the chat''s latest turns before this one, newest first, {id, role, content, error}; null for a new chat).';
revoke execute on function public.open_chat_turn(uuid, text, uuid, jsonb, text, text, text, uuid, integer) from public, anon;
grant execute on function public.open_chat_turn(uuid, text, uuid, jsonb, text, text, text, uuid, integer) to authenticated, service_role;
