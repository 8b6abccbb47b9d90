-- Tests of a bot's answers (issue 20): test cases the team's owners and admins write, import,
-- collect from conversations or accept from suggestions; test runs that ask the bot every case
-- through the answering engine (the `tests` edge function, ephemeral conversations, nothing
-- stored as a chat) with a snapshot of what was tested; one result per case with its scores.
--
-- A bot's test settings say when runs start on their own (after a data-source sync, after its
-- answering settings change, on a schedule) and the rules a case passes by. The two automatic
-- triggers are SQL triggers that enqueue a run; the `tests` function's scheduled /tick
-- (supabase/schedules.json) processes queued runs and due schedules.
--
-- Runs and results are written by the `tests` function with the service role after
-- public.can_manage_bot; clients read them (RLS) and write cases and settings.

-- types -------------------------------------------------------------------------------------
create type public.test_run_trigger as enum ('manual', 'sync', 'settings', 'schedule');
comment on type public.test_run_trigger is 'What started a test run.';
create type public.test_run_status as enum ('queued', 'running', 'succeeded', 'failed', 'cancelled');
comment on type public.test_run_status is 'State of a test run.';
create type public.test_case_status as enum ('active', 'suggested');
comment on type public.test_case_status is 'active: part of every run; suggested: generated from the knowledge, waiting to be accepted or discarded.';

-- tables ------------------------------------------------------------------------------------
create table public.bot_test_settings (
  bot_id uuid primary key references public.bots (id) on delete cascade,
  run_after_sync boolean not null default false,
  run_after_settings boolean not null default false,
  schedule public.sync_schedule not null default 'never',
  next_run_at timestamptz,
  -- pass rules
  top_k integer not null default 5 check (top_k between 1 and 20),
  require_answer boolean not null default true,
  require_source boolean not null default true,
  min_similarity numeric(3, 2) not null default 0.30 check (min_similarity between 0 and 1),
  min_judge_score numeric(3, 2) not null default 0.60 check (min_judge_score between 0 and 1),
  notify_regressions boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.bot_test_settings is
  'When a bot''s tests run on their own (after a sync, after its settings change, on a schedule) and the rules a case passes by. One row per bot; a missing row means the defaults.';
comment on column public.bot_test_settings.top_k is 'An expected source passes when it is among the first top_k sources of the answer.';
comment on column public.bot_test_settings.min_similarity is 'Least similarity (trigram, 0..1) to the expected answer, when the case has one.';
comment on column public.bot_test_settings.min_judge_score is 'Least grade (0..1) of the model judge, when the bot has a model provider and the case an expected answer.';

create table public.test_cases (
  id uuid primary key default gen_random_uuid(),
  bot_id uuid not null references public.bots (id) on delete cascade,
  status public.test_case_status not null default 'active',
  question text not null check (char_length(btrim(question)) between 1 and 4000),
  history jsonb not null default '[]' check (jsonb_typeof(history) = 'array' and jsonb_array_length(history) <= 20
    and pg_column_size(history) <= 65536),
  language public.language_code not null default 'en',
  expected_answer text not null default '' check (char_length(expected_answer) <= 20000),
  required_phrases text[] not null default '{}' check (cardinality(required_phrases) <= 20),
  forbidden_phrases text[] not null default '{}' check (cardinality(forbidden_phrases) <= 20),
  expected_sources text[] not null default '{}' check (cardinality(expected_sources) <= 20),
  tags text[] not null default '{}' check (cardinality(tags) <= 20),
  origin text not null default 'manual' check (origin in ('manual', 'import', 'conversation', 'suggestion')),
  source_message_id uuid references public.messages (id) on delete set null,
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.test_cases is
  'A question a bot must answer well: optional earlier turns (history: [{role, content}]), the expected answer, required and forbidden phrases, expected sources (document URLs or titles), tags.';
create index test_cases_bot_id_idx on public.test_cases (bot_id, status, created_at);
create index test_cases_created_by_idx on public.test_cases (created_by);
create index test_cases_source_message_id_idx on public.test_cases (source_message_id);
create index test_cases_tags_idx on public.test_cases using gin (tags);

create table public.test_runs (
  id uuid primary key default gen_random_uuid(),
  bot_id uuid not null references public.bots (id) on delete cascade,
  trigger public.test_run_trigger not null default 'manual',
  status public.test_run_status not null default 'queued',
  progress_done integer not null default 0,
  progress_total integer not null default 0,
  passed_count integer not null default 0,
  failed_count integer not null default 0,
  regression_count integer not null default 0,
  regressions uuid[] not null default '{}',
  fixed_count integer not null default 0,
  previous_run_id uuid references public.test_runs (id) on delete set null,
  snapshot jsonb not null default '{}' check (jsonb_typeof(snapshot) = 'object'),
  cancel_requested boolean not null default false,
  error text,
  notified_at timestamptz,
  created_by uuid references auth.users (id) on delete set null,
  started_at timestamptz,
  finished_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.test_runs is
  'One run of a bot''s test cases: progress, counts, regressions (case ids that passed in the previous run and fail now), a snapshot of what was tested {instructions, provider, model, temperature, language, knowledge: {documents, chunks, updated_at}}. Written by the tests function.';
create index test_runs_bot_id_idx on public.test_runs (bot_id, created_at desc);
create index test_runs_queued_idx on public.test_runs (created_at) where status = 'queued';
create index test_runs_previous_run_id_idx on public.test_runs (previous_run_id);
create index test_runs_created_by_idx on public.test_runs (created_by);
create unique index test_runs_one_active_idx on public.test_runs (bot_id) where status in ('queued', 'running');

create table public.test_results (
  id uuid primary key default gen_random_uuid(),
  run_id uuid not null references public.test_runs (id) on delete cascade,
  case_id uuid references public.test_cases (id) on delete set null,
  bot_id uuid not null references public.bots (id) on delete cascade,
  question text not null,
  answer text not null default '',
  sources jsonb not null default '[]' check (jsonb_typeof(sources) = 'array'),
  scores jsonb not null default '[]' check (jsonb_typeof(scores) = 'array'),
  passed boolean not null,
  error text,
  latency_ms integer,
  created_at timestamptz not null default now(),
  unique (run_id, case_id)
);
comment on table public.test_results is
  'A case''s answer in one run: the answer, its sources and scores [{name, score, passed, applies, explanation, reasoning?}], passed. Written by the tests function.';
create index test_results_case_id_idx on public.test_results (case_id, created_at desc);
create index test_results_bot_id_idx on public.test_results (bot_id);

alter table public.bot_test_settings enable row level security;
alter table public.test_cases enable row level security;
alter table public.test_runs enable row level security;
alter table public.test_results enable row level security;

-- triggers ----------------------------------------------------------------------------------
create trigger bot_test_settings_set_timestamps before insert or update on public.bot_test_settings
  for each row execute function private.set_timestamps();
create trigger test_cases_set_timestamps before insert or update on public.test_cases
  for each row execute function private.set_timestamps();
create trigger test_runs_set_timestamps before insert or update on public.test_runs
  for each row execute function private.set_timestamps();

-- Clients write what a case is, never whose or which bot's it is.
create function private.protect_test_case_fields() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') then
    if tg_op = 'INSERT' then
      if new.created_by is distinct from (select auth.uid()) then
        raise exception 'A test case is created by the signed-in user' using errcode = '42501';
      end if;
    elsif new.bot_id is distinct from old.bot_id or new.created_by is distinct from old.created_by then
      raise exception 'A test case cannot be moved to another bot or creator' using errcode = '42501';
    end if;
  end if;
  return new;
end;
$$;
comment on function private.protect_test_case_fields() is 'Trigger: clients cannot move a test case or change its creator.';
create trigger test_cases_protect_fields before insert or update on public.test_cases
  for each row execute function private.protect_test_case_fields();

-- The schedule's next run follows the schedule, whoever changes it.
create function private.set_test_schedule() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' or new.schedule is distinct from old.schedule then
    new.next_run_at := private.next_sync_time(new.schedule, now());
  end if;
  return new;
end;
$$;
comment on function private.set_test_schedule() is 'Trigger: keeps bot_test_settings.next_run_at in step with the schedule.';
create trigger bot_test_settings_schedule before insert or update on public.bot_test_settings
  for each row execute function private.set_test_schedule();

-- functions ---------------------------------------------------------------------------------
-- Queues a run unless one is queued or running for the bot, or the bot has no active case.
create function private.enqueue_test_run(bot_id uuid, trigger public.test_run_trigger, created_by uuid default null)
returns uuid
language plpgsql
volatile
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  run_id uuid;
begin
  if not exists (select 1 from public.test_cases c where c.bot_id = enqueue_test_run.bot_id and c.status = 'active') then
    return null;
  end if;
  insert into public.test_runs as r (bot_id, trigger, created_by)
  values (enqueue_test_run.bot_id, enqueue_test_run.trigger, enqueue_test_run.created_by)
  on conflict (bot_id) where status in ('queued', 'running') do nothing
  returning r.id into run_id;
  return run_id;
end;
$$;
comment on function private.enqueue_test_run(uuid, public.test_run_trigger, uuid) is
  'Queues a test run for the bot (null when one is already queued or running, or the bot has no active case).';
revoke execute on function private.enqueue_test_run(uuid, public.test_run_trigger, uuid) from public;
grant execute on function private.enqueue_test_run(uuid, public.test_run_trigger, uuid) to service_role;

-- After a data source's sync succeeds, when the bot's settings say so.
create function private.enqueue_test_run_after_sync() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.status = 'succeeded' and old.status is distinct from 'succeeded'
     and exists (select 1 from public.bot_test_settings s where s.bot_id = new.bot_id and s.run_after_sync) then
    perform private.enqueue_test_run(new.bot_id, 'sync');
  end if;
  return null;
end;
$$;
comment on function private.enqueue_test_run_after_sync() is 'Trigger: a succeeded sync queues a test run when the bot''s test settings ask for it.';
create trigger ingestion_jobs_enqueue_test_run after update of status on public.ingestion_jobs
  for each row execute function private.enqueue_test_run_after_sync();

-- After the bot's answering settings change, when its settings say so.
create function private.enqueue_test_run_after_settings() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if (new.instructions, new.model_provider, new.model, new.temperature, new.language)
       is distinct from (old.instructions, old.model_provider, old.model, old.temperature, old.language)
     and exists (select 1 from public.bot_test_settings s where s.bot_id = new.id and s.run_after_settings) then
    perform private.enqueue_test_run(new.id, 'settings', (select auth.uid()));
  end if;
  return null;
end;
$$;
comment on function private.enqueue_test_run_after_settings() is 'Trigger: a change of the bot''s answering settings queues a test run when its test settings ask for it.';
create trigger bots_enqueue_test_run after update on public.bots
  for each row execute function private.enqueue_test_run_after_settings();

-- Due schedules become queued runs (the tests function's /tick calls it).
create function public.enqueue_scheduled_test_runs() returns integer
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  due record;
  queued integer := 0;
begin
  for due in
    select s.bot_id, s.schedule from public.bot_test_settings s
    where s.schedule <> 'never' and s.next_run_at <= now()
    order by s.next_run_at
    limit 50
    for update skip locked
  loop
    update public.bot_test_settings set next_run_at = private.next_sync_time(due.schedule, now()) where bot_id = due.bot_id;
    if private.enqueue_test_run(due.bot_id, 'schedule') is not null then
      queued := queued + 1;
    end if;
  end loop;
  return queued;
end;
$$;
comment on function public.enqueue_scheduled_test_runs() is 'Queues a test run for every bot whose test schedule is due; returns how many. Service role only.';
revoke execute on function public.enqueue_scheduled_test_runs() from public, anon, authenticated;
grant execute on function public.enqueue_scheduled_test_runs() to service_role;

-- Similarity of an answer to the expected one (pg_trgm), 0..1: how well the expected answer's
-- trigrams are found in some stretch of the answer (word_similarity), so a longer answer that
-- says the expected thing is not punished for saying more.
create function public.answer_similarity(answer text, expected text) returns real
language sql
immutable
parallel safe
set search_path = ''
as $$
  select extensions.word_similarity(lower(expected), lower(answer));
$$;
comment on function public.answer_similarity(text, text) is 'Trigram word similarity (0..1) of the expected answer within the answer, case-insensitive.';
revoke execute on function public.answer_similarity(text, text) from public, anon;
grant execute on function public.answer_similarity(text, text) to authenticated, service_role;

-- "Add as test case" from the owner's conversation view: an assistant turn (or a user turn)
-- becomes a case with the visitor's question and the answer, as corrected by the owner, as
-- the expected answer. Security invoker: the caller must read the message (RLS) and insert
-- the case (RLS: the team's admins and owners).
create function public.add_test_case_from_message(
  message_id uuid,
  expected_answer text default null,
  tags text[] default '{}'
) returns uuid
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  msg record;
  question_text text;
  question_at timestamptz;
  answer_text text;
  history jsonb;
  bot_language text;
  new_id uuid;
begin
  select m.id, m.chat_id, m.bot_id, m.role, m.content, m.created_at into msg
  from public.messages m where m.id = add_test_case_from_message.message_id;
  if msg.id is null then
    raise exception 'No such message' using errcode = 'PT404', hint = 'not_found';
  end if;
  if msg.role = 'assistant' then
    select u.content, u.created_at into question_text, question_at from public.messages u
    where u.chat_id = msg.chat_id and u.role = 'user' and u.created_at <= msg.created_at
    order by u.created_at desc limit 1;
    answer_text := msg.content;
  else
    question_text := msg.content;
    question_at := msg.created_at;
    select a.content into answer_text from public.messages a
    where a.chat_id = msg.chat_id and a.role = 'assistant' and a.created_at >= msg.created_at
    order by a.created_at limit 1;
  end if;
  if question_text is null or btrim(question_text) = '' then
    raise exception 'This turn has no question to test' using errcode = '22023';
  end if;
  -- Up to four earlier turns, oldest first.
  select coalesce(jsonb_agg(jsonb_build_object('role', t.role, 'content', t.content) order by t.created_at), '[]'::jsonb)
  into history
  from (
    select p.role, p.content, p.created_at from public.messages p
    where p.chat_id = msg.chat_id and p.role in ('user', 'assistant') and p.content <> ''
      and p.created_at < question_at
    order by p.created_at desc limit 4
  ) t;
  select b.language into bot_language from public.bots b where b.id = msg.bot_id;
  insert into public.test_cases (bot_id, question, history, language, expected_answer, tags, origin, source_message_id)
  values (msg.bot_id, question_text, history, coalesce(bot_language, 'en'),
          left(coalesce(nullif(btrim(add_test_case_from_message.expected_answer), ''), answer_text, ''), 20000),
          coalesce(add_test_case_from_message.tags, '{}'), 'conversation', msg.id)
  returning id into new_id;
  return new_id;
end;
$$;
comment on function public.add_test_case_from_message(uuid, text, text[]) is
  'Creates a test case from a turn of a conversation: the visitor''s question, earlier turns as history, and the expected answer (the owner''s correction, else the bot''s answer). Returns the case id.';
revoke execute on function public.add_test_case_from_message(uuid, text, text[]) from public, anon;
grant execute on function public.add_test_case_from_message(uuid, text, text[]) to authenticated;

-- policies ----------------------------------------------------------------------------------
create policy "Team admins can read test settings" on public.bot_test_settings
  for select to authenticated using ((select private.has_bot_role(bot_id, 'admin')));
create policy "Platform admins can read test settings" on public.bot_test_settings
  for select to authenticated using ((select private.is_platform_admin()));
create policy "Team admins can create test settings" on public.bot_test_settings
  for insert to authenticated with check ((select private.has_bot_role(bot_id, 'admin')));
create policy "Team admins can update test settings" on public.bot_test_settings
  for update to authenticated
  using ((select private.has_bot_role(bot_id, 'admin')))
  with check ((select private.has_bot_role(bot_id, 'admin')));

create policy "Team admins can read test cases" on public.test_cases
  for select to authenticated using ((select private.has_bot_role(bot_id, 'admin')));
create policy "Platform admins can read test cases" on public.test_cases
  for select to authenticated using ((select private.is_platform_admin()));
create policy "Team admins can create test cases" on public.test_cases
  for insert to authenticated with check ((select private.has_bot_role(bot_id, 'admin')));
create policy "Team admins can update test cases" on public.test_cases
  for update to authenticated
  using ((select private.has_bot_role(bot_id, 'admin')))
  with check ((select private.has_bot_role(bot_id, 'admin')));
create policy "Team admins can delete test cases" on public.test_cases
  for delete to authenticated using ((select private.has_bot_role(bot_id, 'admin')));

create policy "Team admins can read test runs" on public.test_runs
  for select to authenticated using ((select private.has_bot_role(bot_id, 'admin')));
create policy "Platform admins can read test runs" on public.test_runs
  for select to authenticated using ((select private.is_platform_admin()));
create policy "Team admins can delete test runs" on public.test_runs
  for delete to authenticated using ((select private.has_bot_role(bot_id, 'admin')));

create policy "Team admins can read test results" on public.test_results
  for select to authenticated using ((select private.has_bot_role(bot_id, 'admin')));
create policy "Platform admins can read test results" on public.test_results
  for select to authenticated using ((select private.is_platform_admin()));

-- grants ------------------------------------------------------------------------------------
revoke all on public.bot_test_settings, public.test_cases, public.test_runs, public.test_results from anon;
revoke delete, truncate, references, trigger on public.bot_test_settings from authenticated;
revoke truncate, references, trigger on public.test_cases from authenticated;
revoke insert, update, truncate, references, trigger on public.test_runs, public.test_results from authenticated;

-- realtime: a run's progress bar and counts update live
alter publication supabase_realtime add table public.test_runs;
