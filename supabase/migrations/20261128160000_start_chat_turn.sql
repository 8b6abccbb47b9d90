-- The answering engine's first stage in one round trip (issue 17: request -> model call).
--
-- Before: the engine counted the caller's limits one RPC at a time (consume_rate_limit: the
-- visitor, then their address), read the bot with the service role, and issued the visitor's
-- turn pass (issue_chat_turn_pass): four sequential PostgREST round trips before it could store
-- the turn. public.start_chat_turn does the same work, in the same order, in one: it counts each
-- limit in order and stops at the first exhausted one (nothing further down the list is spent),
-- then reads the bot's answering settings and its power-ups (two more round trips before) and,
-- for a visitor, issues the one-time pass that lets
-- open_chat_turn spend the bot's budget. Nothing here decides whether the caller may use the
-- bot: open_chat_turn does (RLS, as the caller), as before.
--
-- issue_chat_turn_pass deleted every expired pass on each call; under many visitors at once the
-- callers queued behind each other's deletes of the same rows (Lock:transactionid in
-- pg_stat_activity). Now it deletes at most 100 expired passes that no one else is deleting
-- (skip locked).

create or replace function public.issue_chat_turn_pass(bot_id uuid, user_id uuid) returns uuid
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  pass uuid;
begin
  delete from private.chat_turn_passes p
  where p.id in (
    select q.id from private.chat_turn_passes q where q.expires_at < now() limit 100 for update skip locked
  );
  insert into private.chat_turn_passes (bot_id, user_id)
  values (issue_chat_turn_pass.bot_id, issue_chat_turn_pass.user_id)
  returning id into pass;
  return pass;
end;
$$;

create function public.start_chat_turn(
  bot_id uuid,
  limit_keys text[] default '{}',
  limit_max integer[] default '{}',
  limit_windows integer[] default '{}',
  pass_for uuid default null
) returns table (allowed boolean, retry_after integer, bot jsonb, power_ups jsonb, power_up_secrets jsonb, turn_pass uuid)
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  n integer := coalesce(cardinality(start_chat_turn.limit_keys), 0);
  found_bot jsonb;
  found_power_ups jsonb;
  found_secrets jsonb;
begin
  if n <> coalesce(cardinality(start_chat_turn.limit_max), 0) or n <> coalesce(cardinality(start_chat_turn.limit_windows), 0) then
    raise exception 'limit_keys, limit_max and limit_windows must have the same length' using errcode = '22023';
  end if;
  for i in 1 .. n loop
    if char_length(start_chat_turn.limit_keys[i]) not between 1 and 300
       or start_chat_turn.limit_max[i] < 1 or start_chat_turn.limit_windows[i] not between 1 and 86400 then
      raise exception 'Invalid rate limit' using errcode = '22023';
    end if;
    if not private.consume_rate_limit(start_chat_turn.limit_keys[i], start_chat_turn.limit_max[i], start_chat_turn.limit_windows[i]) then
      return query select false,
        private.rate_limit_retry_after(start_chat_turn.limit_keys[i], start_chat_turn.limit_windows[i]),
        null::jsonb, null::jsonb, null::jsonb, null::uuid;
      return;
    end if;
  end loop;

  select jsonb_build_object(
    'id', b.id, 'team_id', b.team_id, 'language', b.language, 'instructions', b.instructions,
    'model_provider', b.model_provider, 'model', b.model, 'temperature', b.temperature,
    'suggested_questions', b.suggested_questions,
    -- Every bot has a web channel (the hosted page and the widget); switched off, visitors are refused.
    'web_enabled', coalesce((select bool_and(c.enabled) from public.channels c where c.bot_id = b.id and c.type = 'web'), true)
  ) into found_bot
  from public.bots b where b.id = start_chat_turn.bot_id;

  -- The bot's enabled power-ups of the types a platform administrator has not turned off, and the
  -- secret headers of its http actions (the engine is the service side; nothing reaches a client).
  select coalesce(jsonb_agg(to_jsonb(p) order by p.created_at), '[]') into found_power_ups
  from (
    select p.id, p.bot_id, p.type, p.name, p.label, p.description, p.enabled, p.example_phrases, p.settings, p.created_at
    from public.power_ups p
    where found_bot is not null and p.bot_id = start_chat_turn.bot_id and p.enabled
      and not exists (select 1 from public.platform_disabled_features f where f.kind = 'power_up' and f.type = p.type)
  ) p;
  select coalesce(jsonb_object_agg(x.power_up_id, x.named), '{}') into found_secrets
  from (
    select s.power_up_id, jsonb_object_agg(s.name, s.value) as named
    from public.power_up_secrets s
    where s.power_up_id in (select (e ->> 'id')::uuid from jsonb_array_elements(found_power_ups) e where e ->> 'type' = 'http')
    group by s.power_up_id
  ) x;

  return query select true, 0, found_bot, found_power_ups, found_secrets,
    case when found_bot is not null and start_chat_turn.pass_for is not null
      then public.issue_chat_turn_pass(start_chat_turn.bot_id, start_chat_turn.pass_for) end;
end;
$$;
comment on function public.start_chat_turn(uuid, text[], integer[], integer[], uuid) is
  'The answering engine''s first stage (service role only): counts the caller''s limits in order (stops at the first exhausted: allowed false, retry_after seconds), then returns the bot''s answering settings (null for an unknown bot), its enabled power-ups of types the platform has not turned off with their http secrets, and, with pass_for (a visitor''s user id), a one-time turn pass for open_chat_turn.';
revoke execute on function public.start_chat_turn(uuid, text[], integer[], integer[], uuid) from public, anon, authenticated;
grant execute on function public.start_chat_turn(uuid, text[], integer[], integer[], uuid) to service_role;
