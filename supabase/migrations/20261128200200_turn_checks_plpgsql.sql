-- Issue 17 (200 visitors at once): the checks every chat turn runs, with their plans kept.
--
-- These functions are SQL functions with `set search_path` (so never inlined): Postgres plans a
-- non-inlined SQL function's query again in every statement that calls it. A turn calls them from
-- RLS policies, check constraints and triggers (can_chat_with_bot 5 times a message, the visitor
-- shape check on every chats update, the plan's limits twice, the bot's budget and the turn pass once), each call
-- 0.3-0.7 ms of planning on this machine (bench/chat/turn-sql.mjs: can_chat_with_bot alone 3.6 ms
-- of Postgres time per message). PL/pgSQL keeps each query's plan for the session (PostgREST's
-- connections live long), so the same queries, with the same rules and results, now cost their
-- execution only. Nothing about who may do what changes: each body is the same query.

create or replace function private.can_chat_with_bot(bot_id uuid) returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return exists (
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
end;
$$;

create or replace function private.owns_chat(chat_user_id uuid, chat_bot_id uuid) returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return coalesce(
    owns_chat.chat_user_id = (select auth.uid()) and private.can_chat_with_bot(owns_chat.chat_bot_id),
    false
  );
end;
$$;

create or replace function private.is_own_chat(chat_id uuid) returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return coalesce(
    -- user_id first only narrows (messages of other people's chats skip the call); owns_chat decides.
    (select private.owns_chat(c.user_id, c.bot_id) from public.chats c
     where c.id = is_own_chat.chat_id and c.user_id = (select auth.uid())),
    false
  );
end;
$$;

create or replace function private.is_visitor_identity(value jsonb) returns boolean
language plpgsql
immutable
set search_path = ''
as $$
begin
  return value is null or (
    jsonb_typeof(value) = 'object'
    and octet_length(value::text) <= 4096
    and (select count(*) from jsonb_object_keys(value)) between 1 and 20
    and not exists (
      select 1 from jsonb_each(value) e
      where e.key !~ '^[A-Za-z][A-Za-z0-9_.-]{0,39}$'
         or jsonb_typeof(e.value) not in ('string', 'number', 'boolean')
         or (jsonb_typeof(e.value) = 'string' and char_length(e.value #>> '{}') > 200)
    )
  );
end;
$$;

create or replace function private.plan_limit(team_id uuid, limit_name text) returns bigint
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (
    select case
      when jsonb_typeof(to_jsonb(p) -> plan_limit.limit_name) = 'boolean'
        then case when (to_jsonb(p) ->> plan_limit.limit_name)::boolean then null else 0 end
      else (to_jsonb(p) ->> plan_limit.limit_name)::bigint
    end
    from public.teams t join public.plans p on p.id = t.plan_id
    where t.id = plan_limit.team_id
  );
end;
$$;

create or replace function private.bot_chat_budget(bot_id uuid) returns integer
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  -- Primary-key lookups only: the bot, its team, the team's plan.
  return (
    select p.chat_requests_per_minute
    from public.bots b
    join public.teams t on t.id = b.team_id
    join public.plans p on p.id = t.plan_id
    where b.id = bot_chat_budget.bot_id
  );
end;
$$;

create or replace function private.consume_chat_turn_pass(pass uuid, bot_id uuid) returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  delete from private.chat_turn_passes p
  where p.id = consume_chat_turn_pass.pass
    and p.bot_id = consume_chat_turn_pass.bot_id
    and p.user_id = (select auth.uid())
    and p.expires_at > now();
  return found;
end;
$$;
