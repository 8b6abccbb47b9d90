-- Model spend outside the quota (review C): ask tasks and test runs answer with the bot's model
-- without storing a chat turn, so the monthly message quota (quota_monthly_messages on
-- public.messages) never saw them. Now:
--   * public.message_quota_reached(bot_id) (service role): has the bot's team used up this
--     month's messages? The tasks function fails an ask task's run with `quota_exceeded`, and
--     the tests function refuses a manual test run (402) and ends a queued one as failed, before
--     any model call. Their answers are not counted as messages (docs/billing.md says so).
--   * A task runs at most every 15 minutes: a cron whose minute field fires twice within
--     15 minutes is refused (hint task_too_frequent; "every N hours" is at least an hour).
--   * A bot has at most 20 tasks (hint too_many_tasks); plans have no task limit.

create function private.message_quota_reached(bot_id uuid) returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  the_team uuid := (select b.team_id from public.bots b where b.id = message_quota_reached.bot_id);
  allowed bigint;
begin
  if the_team is null then
    return false;
  end if;
  allowed := private.plan_limit(the_team, 'messages_per_month');
  -- the same test as quota_monthly_messages (private.enforce_plan_limits) for a visitor's turn
  return allowed is not null and private.plan_usage(the_team, 'messages_per_month') >= allowed;
end;
$$;
comment on function private.message_quota_reached(uuid) is
  'Has the bot''s team used up this month''s messages (plan_usage >= plan_limit, as quota_monthly_messages checks a turn)? Service role only.';
revoke execute on function private.message_quota_reached(uuid) from public, anon, authenticated;
grant execute on function private.message_quota_reached(uuid) to service_role;

create function public.message_quota_reached(bot_id uuid) returns boolean
language sql
stable
security invoker
set search_path = ''
as $$ select private.message_quota_reached(bot_id => message_quota_reached.bot_id) $$;
revoke execute on function public.message_quota_reached(uuid) from public, anon, authenticated;
grant execute on function public.message_quota_reached(uuid) to service_role;

-- The smallest number of minutes between two runs that a cron's minute field allows (the wrap
-- from the last minute of an hour to the first of the next counts, as if every hour ran), or
-- null when the field is not made of numbers, ranges, steps and lists.
create function private.cron_minute_gap(cron text) returns integer
language plpgsql
immutable
set search_path = ''
as $$
declare
  field text := split_part(regexp_replace(btrim(cron), '\s+', ' ', 'g'), ' ', 1);
  item text;
  m text[];
  lo integer;
  hi integer;
  step integer;
  minutes integer[] := '{}';
  gap integer;
begin
  foreach item in array string_to_array(field, ',') loop
    m := regexp_match(item, '^(\*|(\d{1,2})(?:-(\d{1,2}))?)(?:/(\d{1,2}))?$');
    if m is null then
      return null;
    end if;
    step := coalesce(m[4]::integer, 1);
    if step < 1 then
      return null;
    end if;
    if m[1] = '*' then
      lo := 0; hi := 59;
    else
      lo := m[2]::integer;
      -- "5/15" is 5, 20, 35, 50 (as cron-parser reads it)
      hi := coalesce(m[3]::integer, case when m[4] is not null then 59 else lo end);
    end if;
    if lo > 59 or hi > 59 or lo > hi then
      return null;
    end if;
    minutes := minutes || array(select generate_series(lo, hi, step));
  end loop;
  select min(d) into gap from (
    select coalesce(lead(x) over (order by x), first_value(x) over (order by x) + 60) - x as d
    from (select distinct unnest(minutes) as x) s
  ) g;
  return coalesce(gap, 60);
end;
$$;
comment on function private.cron_minute_gap(text) is
  'Fewest minutes between two runs a cron''s minute field allows (60 for one minute an hour); null when the field is not numbers, ranges, steps and lists.';

create function private.check_task_limits() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  gap integer;
begin
  -- (a row with both a cron and every_hours is left to the table's check, 23514)
  if new.cron is not null and new.every_hours is null and (tg_op = 'INSERT' or new.cron is distinct from old.cron) then
    gap := private.cron_minute_gap(new.cron);
    if gap is null then
      raise exception 'Write the minute field of the schedule with numbers, ranges (0-30), steps (*/15) and lists (0,30)'
        using errcode = '22023', hint = 'task_too_frequent';
    end if;
    if gap < 15 then
      raise exception 'A task runs at most every 15 minutes: choose a schedule with at least 15 minutes between runs'
        using errcode = '22023', hint = 'task_too_frequent';
    end if;
  end if;
  if tg_op = 'INSERT' then
    -- one insert at a time per bot, so two at once cannot both pass the count
    perform pg_advisory_xact_lock(hashtextextended('tasks:' || new.bot_id::text, 0));
    if (select count(*) from public.tasks t where t.bot_id = new.bot_id) >= 20 then
      raise exception 'A bot has at most 20 tasks: delete one first' using errcode = '22023', hint = 'too_many_tasks';
    end if;
  end if;
  return new;
end;
$$;
comment on function private.check_task_limits() is
  'Trigger: a cron schedule runs at most every 15 minutes (hint task_too_frequent) and a bot has at most 20 tasks (hint too_many_tasks).';
revoke execute on function private.check_task_limits() from public, anon, authenticated;

create trigger tasks_check_limits before insert or update of cron, every_hours on public.tasks
  for each row execute function private.check_task_limits();
