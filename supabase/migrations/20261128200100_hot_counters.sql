-- Issue 17 (200 visitors at once): the counters every turn updates no longer make turns queue.
--
-- Every stored message updated the bot's web channel's row (private.count_web_turn: message_count)
-- and every answer the team's team_usage row of the month (private.count_message): the same row
-- for all of a bot's visitors, locked from the update until the transaction's COMMIT, which
-- PostgREST sends in a further round trip. With 200 visitors at once the turns queued on these
-- rows (bench/chat/load.mjs: Lock:transactionid, 16-22 ms a call, about 23 messages a second at
-- most on a 20-chunk bot) and held PostgREST's connections while they waited.
--
-- Now a turn that finds the row locked by another turn does not wait: it writes its +1 into a
-- pending row of its own (an insert, which conflicts with nothing), and the next turn that gets
-- the row (for update skip locked) folds every committed pending count into it. Nothing is lost
-- or counted twice: a pending row is deleted by the transaction that adds it to the counter, under
-- the counter's row lock; a rolled-back turn takes its pending row or its fold with it. Without
-- contention (one turn at a time: the tests) every turn updates the row itself, as before.
--
-- Readers: the monthly message quota (private.plan_usage, and through it the insert check and
-- public.team_plan_usage) adds the team's pending counts, so the quota is as exact as before. The
-- web channel's message_count and team_usage.messages read directly may lag by the counts of the
-- last contended turns until the bot's next turn folds them (a burst's last few).

create table private.channel_turns_pending (
  id bigint generated always as identity primary key,
  channel_id uuid not null,
  n integer not null,
  at timestamptz not null
);
comment on table private.channel_turns_pending is
  'Web turns counted while the web channel''s row was locked by another turn; folded into channels.message_count by the next turn that updates it (private.count_web_turn).';
create index channel_turns_pending_channel_idx on private.channel_turns_pending (channel_id);
alter table private.channel_turns_pending enable row level security;
-- No policies: only the security-definer triggers below touch it.

create table private.team_usage_pending (
  id bigint generated always as identity primary key,
  team_id uuid not null,
  month date not null,
  messages integer not null
);
comment on table private.team_usage_pending is
  'Answers counted while the team''s team_usage row was locked by another answer; folded into team_usage.messages by the next answer that updates it (private.count_message). private.plan_usage adds them.';
create index team_usage_pending_team_idx on private.team_usage_pending (team_id, month);
alter table private.team_usage_pending enable row level security;

create or replace function private.count_web_turn() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  web uuid;
begin
  select c.id into web from public.channels c
  where c.bot_id = new.bot_id and c.type = 'web'
    and exists (select 1 from public.chats ch where ch.id = new.chat_id and ch.channel in ('web', 'widget'));
  if web is null then
    return null;
  end if;
  perform 1 from public.channels c where c.id = web for update skip locked;
  if found then
    with folded as (
      delete from private.channel_turns_pending p where p.channel_id = web returning p.n, p.at
    )
    update public.channels c
    set message_count = c.message_count + 1 + coalesce((select sum(f.n) from folded f), 0)::integer,
        last_event_at = greatest(c.last_event_at, new.created_at, (select max(f.at) from folded f))
    where c.id = web;
  else
    -- Another turn holds the row: count this one beside it (the next turn folds it in).
    insert into private.channel_turns_pending (channel_id, n, at) values (web, 1, new.created_at);
  end if;
  return null;
end;
$$;
comment on function private.count_web_turn() is
  'Trigger: a turn of a web or widget chat counts on the bot''s web channel (when another turn holds the row, in private.channel_turns_pending, folded in by the next).';
revoke execute on function private.count_web_turn() from public, anon, authenticated;

create or replace function private.count_message() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  the_team uuid;
  the_month date;
begin
  update public.chats c
  set message_count = c.message_count + 1,
      last_message_at = new.created_at,
      title = coalesce(c.title, case when new.role = 'user' then left(new.content, 80) end)
  where c.id = new.chat_id;
  -- Billing counts answers actually given, not failed attempts.
  if new.role = 'assistant' and new.error is null then
    select b.team_id into the_team from public.bots b where b.id = new.bot_id;
    if the_team is null then
      return null;
    end if;
    the_month := date_trunc('month', now() at time zone 'utc')::date;
    perform 1 from public.team_usage u where u.team_id = the_team and u.month = the_month for update skip locked;
    if found then
      with folded as (
        delete from private.team_usage_pending p where p.team_id = the_team and p.month = the_month returning p.messages
      )
      update public.team_usage u set messages = u.messages + 1 + coalesce((select sum(f.messages) from folded f), 0)
      where u.team_id = the_team and u.month = the_month;
    elsif exists (select 1 from public.team_usage u where u.team_id = the_team and u.month = the_month) then
      -- Another answer holds the row: count this one beside it (the next answer folds it in).
      insert into private.team_usage_pending (team_id, month, messages) values (the_team, the_month, 1);
    else
      -- The month's first answer.
      insert into public.team_usage as u (team_id, month, messages)
      values (the_team, the_month, 1)
      on conflict (team_id, month) do update set messages = u.messages + 1;
    end if;
  end if;
  return null;
end;
$$;

-- The month's answers for the quota: team_usage plus the pending counts not folded in yet.
create or replace function private.plan_usage(team_id uuid, limit_name text) returns bigint
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  month_start timestamptz := date_trunc('month', now() at time zone 'utc') at time zone 'utc';
begin
  case plan_usage.limit_name
    when 'bots', 'data_sources', 'channels', 'power_ups' then
      return (select count(*) from private.team_items(plan_usage.team_id, plan_usage.limit_name));
    when 'members' then
      return (select count(*) from public.team_members m where m.team_id = plan_usage.team_id);
    when 'stored_characters' then
      return (select coalesce(sum(char_length(d.content)), 0) from public.documents d join public.bots b on b.id = d.bot_id
              where b.team_id = plan_usage.team_id);
    when 'messages_per_month' then
      return coalesce((select u.messages from public.team_usage u
                       where u.team_id = plan_usage.team_id and u.month = month_start::date), 0)
           + coalesce((select sum(p.messages) from private.team_usage_pending p
                       where p.team_id = plan_usage.team_id and p.month = month_start::date), 0);
    when 'test_runs_per_month' then
      return (select count(*) from public.test_runs r join public.bots b on b.id = r.bot_id
              where b.team_id = plan_usage.team_id and r.created_at >= month_start);
    when 'api_access' then
      return (select count(*) from public.channels c join public.bots b on b.id = c.bot_id
              where b.team_id = plan_usage.team_id and c.type = 'api');
    when 'powered_by_removable' then
      return (select count(*) from public.bots b where b.team_id = plan_usage.team_id and not b.show_powered_by);
    else
      raise exception 'Unknown plan limit: %', plan_usage.limit_name using errcode = '22023';
  end case;
end;
$$;
comment on function private.plan_usage(uuid, text) is
  'How much of a limit the team uses: items it has, characters stored, this UTC month''s answers (team_usage with its pending counts) or test runs; for api_access the API channels, for powered_by_removable the bots hiding the line.';

-- The bot's per-minute budget (private.spend_bot_chat_budget, one row of private.rate_limits for
-- all of a bot's turns): the same way. A turn that finds the row locked by another turn counts
-- itself against the row's committed hits plus the committed pending hits of the window, and
-- when that is within the budget writes a pending hit; the next turn that gets the row folds the
-- window's pending hits into it. Turns that are in flight at the same moment do not see each
-- other's pending hits, so under contention the budget can be passed by at most the number of
-- turns stored at the same instant (PostgREST's pool: 10), as with any counter read before its
-- writers commit; one turn at a time, it is exact as before.
create table private.rate_limit_pending (
  id bigint generated always as identity primary key,
  key text not null,
  at timestamptz not null default now()
);
comment on table private.rate_limit_pending is
  'Hits of a bot''s per-minute budget counted while its private.rate_limits row was locked by another turn; folded in by the next turn that updates it (private.spend_bot_chat_budget).';
create index rate_limit_pending_key_idx on private.rate_limit_pending (key, at);
alter table private.rate_limit_pending enable row level security;

create or replace function private.spend_bot_chat_budget(bot_id uuid) returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  counter_key text := 'chat:bot:' || spend_bot_chat_budget.bot_id::text;
  budget integer := coalesce(private.bot_chat_budget(spend_bot_chat_budget.bot_id), 600);
  started timestamptz;
  used integer;
begin
  perform 1 from private.rate_limits r where r.key = counter_key for update skip locked;
  if found then
    -- The row is ours until commit: fold the pending hits of its window in, count this turn.
    with folded as (
      delete from private.rate_limit_pending p where p.key = counter_key returning p.at
    )
    update private.rate_limits r
    set hits = case when r.window_start + interval '60 seconds' > now()
                    then r.hits + 1 + (select count(*) from folded f where f.at >= r.window_start)::integer
                    else 1 + (select count(*) from folded f where f.at >= now())::integer end,
        window_start = case when r.window_start + interval '60 seconds' > now() then r.window_start else now() end
    where r.key = counter_key
    returning r.hits, r.window_start into used, started;
  elsif exists (select 1 from private.rate_limits r where r.key = counter_key) then
    -- Another turn holds the row: count against its committed hits and the window's pending ones.
    select r.window_start,
           case when r.window_start + interval '60 seconds' > now()
                then r.hits + (select count(*) from private.rate_limit_pending p where p.key = counter_key and p.at >= r.window_start)::integer
                else 0 end + 1
    into started, used
    from private.rate_limits r where r.key = counter_key;
    if started + interval '60 seconds' <= now() then
      started := now();
    end if;
    if used <= budget then
      insert into private.rate_limit_pending (key, at) values (counter_key, greatest(now(), started));
    end if;
  else
    if private.consume_rate_limit(counter_key, budget, 60) then
      return null;
    end if;
    return (select greatest(1, ceil(extract(epoch from (r.window_start + interval '60 seconds' - now())))::integer)
            from private.rate_limits r where r.key = counter_key);
  end if;
  if used <= budget then
    return null;
  end if;
  return greatest(1, ceil(extract(epoch from (started + interval '60 seconds' - now())))::integer);
end;
$$;
comment on function private.spend_bot_chat_budget(uuid) is
  'Counts one answer against private.bot_chat_budget(bot_id) per minute: null while allowed, else seconds to wait. When another turn holds the counter''s row, the hit is written to private.rate_limit_pending and folded in by the next turn.';
