-- Conversations: chats (one visitor with one bot), their messages, feedback on
-- answers, monthly message counts per team (billing), rate-limit counters and
-- the private `chat-images` bucket.
--
-- Who sees what:
--   * a visitor reads and writes only their own chats, and only while they may
--     chat with the bot (private.can_chat_with_bot);
--   * a visitor inserts only role 'user' messages; assistant messages are written
--     by the `chat` edge function with the service role (a client can never put
--     words in the bot's mouth);
--   * team members read (and may delete) the conversations of their bots;
--     platform admins read everything;
--   * a shared chat is readable by anyone with its link through
--     public.get_shared_chat(chat_id), read-only. The link is the chat id: a
--     random v4 uuid (122 random bits) is unguessable, and un-sharing (shared =
--     false) closes it again, so no separate share token is needed.

-- tables ----------------------------------------------------------------------
create table public.chats (
  id uuid primary key default gen_random_uuid(),
  bot_id uuid not null references public.bots (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  channel text not null default 'web'
    check (channel in ('web', 'widget', 'api', 'slack', 'discord', 'telegram', 'whatsapp')),
  title text check (title is null or char_length(title) <= 200),
  shared boolean not null default false,
  message_count integer not null default 0,
  last_message_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.chats is
  'A conversation of one visitor (auth user, often anonymous) with one bot. shared = readable by link (get_shared_chat).';
create index chats_bot_id_created_at_idx on public.chats (bot_id, created_at desc);
create index chats_user_id_last_message_at_idx on public.chats (user_id, last_message_at desc nulls last);

create table public.messages (
  id uuid primary key default gen_random_uuid(),
  chat_id uuid not null references public.chats (id) on delete cascade,
  bot_id uuid not null references public.bots (id) on delete cascade,
  role text not null check (role in ('user', 'assistant')),
  content text not null default '' check (char_length(content) <= 100000),
  sources jsonb not null default '[]' check (jsonb_typeof(sources) = 'array'),
  images jsonb not null default '[]' check (jsonb_typeof(images) = 'array' and jsonb_array_length(images) <= 4),
  prompt_tokens integer,
  completion_tokens integer,
  latency_ms integer,
  first_token_ms integer,
  model text,
  provider text,
  error text,
  created_at timestamptz not null default now()
);
comment on table public.messages is
  'A turn of a chat. user turns are written by the visitor (RLS); assistant turns by the chat function (service role), with sources [{chunk_id, document_id, title, url, excerpt}] and usage.';
create index messages_chat_id_created_at_idx on public.messages (chat_id, created_at);
create index messages_bot_id_created_at_idx on public.messages (bot_id, created_at desc);
create index messages_images_idx on public.messages using gin (images jsonb_path_ops);

create table public.message_feedback (
  id uuid primary key default gen_random_uuid(),
  message_id uuid not null references public.messages (id) on delete cascade,
  bot_id uuid not null references public.bots (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  rating text not null check (rating in ('up', 'down')),
  comment text check (comment is null or char_length(comment) <= 2000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (message_id, user_id)
);
comment on table public.message_feedback is
  'A visitor''s thumbs up/down (and optional comment) on an answer in one of their own chats. bot_id is copied from the message.';
create index message_feedback_user_id_idx on public.message_feedback (user_id);
create index message_feedback_bot_id_created_at_idx on public.message_feedback (bot_id, created_at desc);

create table public.team_usage (
  team_id uuid not null references public.teams (id) on delete cascade,
  month date not null check (month = date_trunc('month', month)::date),
  messages integer not null default 0,
  primary key (team_id, month)
);
comment on table public.team_usage is 'Answers given by a team''s bots per calendar month (UTC), for billing. Counted by a trigger on assistant messages.';

create table private.rate_limits (
  key text primary key,
  window_start timestamptz not null,
  hits integer not null
);
comment on table private.rate_limits is 'Fixed-window counters for private.consume_rate_limit (chat, bot-login, ...).';
create index rate_limits_window_start_idx on private.rate_limits (window_start);

alter table public.chats enable row level security;
alter table public.messages enable row level security;
alter table public.message_feedback enable row level security;
alter table public.team_usage enable row level security;
alter table private.rate_limits enable row level security;

-- helper functions ------------------------------------------------------------
-- Is this chat the caller's own, with a bot they may still chat with?
create function private.is_own_chat(chat_id uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.chats c
    where c.id = is_own_chat.chat_id
      and c.user_id = (select auth.uid())
      and private.can_chat_with_bot(c.bot_id)
  );
$$;
comment on function private.is_own_chat(uuid) is 'Is the chat the caller''s own, with a bot the caller may chat with?';
revoke execute on function private.is_own_chat(uuid) from public;
grant execute on function private.is_own_chat(uuid) to authenticated, service_role;

-- Atomic fixed-window counter: true while the key has hits left in its window.
create function private.consume_rate_limit(key text, max_hits integer, window_seconds integer) returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  used integer;
begin
  insert into private.rate_limits as r (key, window_start, hits)
  values (consume_rate_limit.key, now(), 1)
  on conflict (key) do update
    set hits = case when r.window_start + make_interval(secs => consume_rate_limit.window_seconds) > now()
                    then r.hits + 1 else 1 end,
        window_start = case when r.window_start + make_interval(secs => consume_rate_limit.window_seconds) > now()
                            then r.window_start else now() end
  returning r.hits into used;
  -- Forget stale windows now and then so the table stays small.
  if random() < 0.001 then
    delete from private.rate_limits r where r.window_start < now() - interval '1 day';
  end if;
  return used <= consume_rate_limit.max_hits;
end;
$$;
comment on function private.consume_rate_limit(text, integer, integer) is
  'Counts one hit for key in a fixed window of window_seconds; true while at most max_hits were used.';
revoke execute on function private.consume_rate_limit(text, integer, integer) from public;
grant execute on function private.consume_rate_limit(text, integer, integer) to service_role;

-- The same, for edge functions through REST (service role only), with the
-- seconds until the window ends so they can answer Retry-After.
create function public.consume_rate_limit(key text, max_hits integer, window_seconds integer)
returns table (allowed boolean, retry_after integer)
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  ok boolean;
begin
  if char_length(consume_rate_limit.key) not between 1 and 300
     or consume_rate_limit.max_hits < 1 or consume_rate_limit.window_seconds not between 1 and 86400 then
    raise exception 'Invalid rate limit' using errcode = '22023';
  end if;
  ok := private.consume_rate_limit(consume_rate_limit.key, consume_rate_limit.max_hits, consume_rate_limit.window_seconds);
  return query
    select ok,
           greatest(1, ceil(extract(epoch from (r.window_start + make_interval(secs => consume_rate_limit.window_seconds) - now())))::integer)
    from private.rate_limits r where r.key = consume_rate_limit.key;
end;
$$;
comment on function public.consume_rate_limit(text, integer, integer) is
  'Service role: count a hit for key; allowed = still within max_hits in the window; retry_after = seconds left in the window.';
revoke execute on function public.consume_rate_limit(text, integer, integer) from public, anon, authenticated;
grant execute on function public.consume_rate_limit(text, integer, integer) to service_role;

-- May the caller read this object of the chat-images bucket as a team member
-- (an image attached to a message of one of their bots' chats)?
create function private.can_read_chat_image(object_name text) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.messages m
    where m.images @> jsonb_build_array(jsonb_build_object('path', can_read_chat_image.object_name))
      and (private.has_bot_role(m.bot_id, null) or private.is_platform_admin())
  );
$$;
comment on function private.can_read_chat_image(text) is 'Is the image attached to a message of a bot the caller''s team owns?';
revoke execute on function private.can_read_chat_image(text) from public;
grant execute on function private.can_read_chat_image(text) to authenticated, service_role;

-- triggers --------------------------------------------------------------------
create trigger chats_set_timestamps before insert or update on public.chats
  for each row execute function private.set_timestamps();
create trigger message_feedback_set_timestamps before insert or update on public.message_feedback
  for each row execute function private.set_timestamps();

-- Clients may only change a chat's title and shared flag; counters and owners are the system's.
create function private.protect_chat_fields() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') then
    if tg_op = 'INSERT' then
      if new.user_id is distinct from (select auth.uid()) then
        raise exception 'A chat belongs to the signed-in user' using errcode = '42501';
      end if;
      new.message_count := 0;
      new.last_message_at := null;
    elsif new.id is distinct from old.id or new.bot_id is distinct from old.bot_id
       or new.user_id is distinct from old.user_id or new.channel is distinct from old.channel
       or new.message_count is distinct from old.message_count
       or new.last_message_at is distinct from old.last_message_at then
      raise exception 'Only the title and the shared flag of a chat can be changed' using errcode = '42501';
    end if;
  end if;
  return new;
end;
$$;
create trigger protect_chat_fields before insert or update on public.chats
  for each row execute function private.protect_chat_fields();

-- A message's bot is its chat's bot; a client-written message is a plain user turn.
create function private.prepare_message() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  select c.bot_id into new.bot_id from public.chats c where c.id = new.chat_id;
  if current_user in ('anon', 'authenticated') then
    new.sources := '[]';
    new.prompt_tokens := null;
    new.completion_tokens := null;
    new.latency_ms := null;
    new.first_token_ms := null;
    new.model := null;
    new.provider := null;
    new.error := null;
    new.created_at := now();
  end if;
  return new;
end;
$$;
create trigger prepare_message before insert on public.messages
  for each row execute function private.prepare_message();

create function private.protect_message_fields() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') then
    raise exception 'Messages cannot be edited' using errcode = '42501';
  end if;
  return new;
end;
$$;
create trigger protect_message_fields before update on public.messages
  for each row execute function private.protect_message_fields();

-- Keeps the chat's counters and the team's monthly usage current.
create function private.count_message() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.chats c
  set message_count = c.message_count + 1,
      last_message_at = new.created_at,
      title = coalesce(c.title, case when new.role = 'user' then left(new.content, 80) end)
  where c.id = new.chat_id;
  -- Billing counts answers actually given, not failed attempts.
  if new.role = 'assistant' and new.error is null then
    insert into public.team_usage as u (team_id, month, messages)
    select b.team_id, date_trunc('month', now() at time zone 'utc')::date, 1
    from public.bots b where b.id = new.bot_id
    on conflict (team_id, month) do update set messages = u.messages + 1;
  end if;
  return null;
end;
$$;
create trigger count_message after insert on public.messages
  for each row execute function private.count_message();

create function private.prepare_feedback() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and (new.message_id is distinct from old.message_id or new.user_id is distinct from old.user_id) then
    raise exception 'Feedback cannot be moved to another message' using errcode = '42501';
  end if;
  select m.bot_id into new.bot_id from public.messages m where m.id = new.message_id;
  return new;
end;
$$;
create trigger prepare_feedback before insert or update on public.message_feedback
  for each row execute function private.prepare_feedback();

-- rpc -------------------------------------------------------------------------
-- Anyone with the link: a shared chat with its messages, read-only. A shared
-- chat of a private bot stays closed to people outside the bot's team. The
-- public RPC is security invoker; the private helper it calls reads past RLS.
create function private.shared_chat(chat_id uuid) returns jsonb
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
    and c.shared
    and (b.visibility <> 'private' or private.can_chat_with_bot(b.id));
$$;
comment on function private.shared_chat(uuid) is 'The {chat, bot, messages} of a shared chat, or null.';
revoke execute on function private.shared_chat(uuid) from public;
grant execute on function private.shared_chat(uuid) to authenticated, service_role;

create function public.get_shared_chat(chat_id uuid) returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.shared_chat(get_shared_chat.chat_id);
$$;
comment on function public.get_shared_chat(uuid) is
  'Any session with the link: {chat, bot, messages} of a shared chat, or null when it is not shared (or its bot is private to a team).';
revoke execute on function public.get_shared_chat(uuid) from public, anon;
-- Visitors always have a (possibly anonymous) session, as for chatting itself.
grant execute on function public.get_shared_chat(uuid) to authenticated, service_role;

-- policies: chats -------------------------------------------------------------
create policy "Visitors can read their own chats" on public.chats
  for select to authenticated
  using (user_id = (select auth.uid()) and (select private.can_chat_with_bot(bot_id)));

create policy "Team members can read their bots' chats" on public.chats
  for select to authenticated
  using ((select private.has_bot_role(bot_id, null)));

create policy "Platform admins can read all chats" on public.chats
  for select to authenticated
  using ((select private.is_platform_admin()));

create policy "Visitors can start chats with bots they may use" on public.chats
  for insert to authenticated
  with check (user_id = (select auth.uid()) and (select private.can_chat_with_bot(bot_id)));

create policy "Visitors can rename and share their own chats" on public.chats
  for update to authenticated
  using (user_id = (select auth.uid()) and (select private.can_chat_with_bot(bot_id)))
  with check (user_id = (select auth.uid()));

create policy "Visitors can delete their own chats" on public.chats
  for delete to authenticated
  using (user_id = (select auth.uid()));

create policy "Team members can delete their bots' chats" on public.chats
  for delete to authenticated
  using ((select private.has_bot_role(bot_id, null)));

-- policies: messages ----------------------------------------------------------
create policy "Visitors can read the messages of their own chats" on public.messages
  for select to authenticated
  using ((select private.is_own_chat(chat_id)));

create policy "Team members can read their bots' messages" on public.messages
  for select to authenticated
  using ((select private.has_bot_role(bot_id, null)));

create policy "Platform admins can read all messages" on public.messages
  for select to authenticated
  using ((select private.is_platform_admin()));

create policy "Visitors can add their own turns to their own chats" on public.messages
  for insert to authenticated
  with check (role = 'user' and (select private.is_own_chat(chat_id)));

-- policies: message_feedback --------------------------------------------------
create policy "Visitors can read their own feedback" on public.message_feedback
  for select to authenticated
  using (user_id = (select auth.uid()));

create policy "Team members can read feedback on their bots" on public.message_feedback
  for select to authenticated
  using ((select private.has_bot_role(bot_id, null)));

create policy "Platform admins can read all feedback" on public.message_feedback
  for select to authenticated
  using ((select private.is_platform_admin()));

create policy "Visitors can rate answers in their own chats" on public.message_feedback
  for insert to authenticated
  with check (
    user_id = (select auth.uid())
    and exists (
      select 1 from public.messages m
      where m.id = message_id and m.role = 'assistant' and (select private.is_own_chat(m.chat_id))
    )
  );

create policy "Visitors can change their own feedback" on public.message_feedback
  for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

create policy "Visitors can remove their own feedback" on public.message_feedback
  for delete to authenticated
  using (user_id = (select auth.uid()));

-- policies: team_usage --------------------------------------------------------
create policy "Team members can read their team's usage" on public.team_usage
  for select to authenticated
  using ((select private.has_team_role(team_id)));

create policy "Platform admins can read all usage" on public.team_usage
  for select to authenticated
  using ((select private.is_platform_admin()));

-- grants ----------------------------------------------------------------------
revoke all on public.chats, public.messages, public.message_feedback, public.team_usage from anon;
revoke insert, update, delete, truncate, references, trigger on public.team_usage from authenticated;
revoke update, truncate, references, trigger on public.messages from authenticated;
revoke truncate, references, trigger on public.chats, public.message_feedback from authenticated;
revoke all on private.rate_limits from public, anon, authenticated;

-- storage: chat-images ----------------------------------------------------------
-- Images a visitor attaches to a message, under <user_id>/...; the chat function
-- re-checks size and type before a model sees them.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('chat-images', 'chat-images', false, 5 * 1024 * 1024,
        array['image/png', 'image/jpeg', 'image/webp', 'image/gif'])
on conflict (id) do nothing;

create policy "Visitors can upload chat images to their own folder" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'chat-images' and (storage.foldername(name))[1] = (select auth.uid())::text);

create policy "Visitors can read their own chat images" on storage.objects
  for select to authenticated
  using (bucket_id = 'chat-images' and (storage.foldername(name))[1] = (select auth.uid())::text);

create policy "Team members can read chat images sent to their bots" on storage.objects
  for select to authenticated
  using (bucket_id = 'chat-images' and (select private.can_read_chat_image(name)));

create policy "Visitors can delete their own chat images" on storage.objects
  for delete to authenticated
  using (bucket_id = 'chat-images' and (storage.foldername(name))[1] = (select auth.uid())::text);

-- realtime ----------------------------------------------------------------------
-- The owner's conversation view and a visitor's other tabs update live (RLS per subscriber).
alter publication supabase_realtime add table public.chats, public.messages;
