-- Power-ups: actions a bot can take during a chat (issue 19).
--
--   * power_ups: one action of a bot: an HTTP call (tool), a lead form, a link button or a
--     handoff to a person. Settings are jsonb, checked by the edge functions (zod) and by
--     constraints here for what must never be wrong (type, name shape).
--   * power_up_secrets: secret header values (API keys), service role only; owners set them
--     through set_power_up_secret() and see only which names are set (power_up_secret_names()).
--   * power_up_calls: every call the engine made, full arguments and a truncated result, for the
--     owner's view. The visitor sees only the short line in messages.actions.
--   * leads: what a visitor typed into a lead form; visitors add a lead only to their own chat
--     through submit_lead().
--   * handoff on chats: needs_human (the bot stays quiet), and replies of the team as messages
--     with role 'human', announced on the chat's realtime topic like every other turn.
--
-- Who may do what: the bot's team (owners and admins) reads and manages power-ups, calls and
-- leads; platform admins read them; visitors and anon read none of it. Writes beyond CRUD are
-- RPCs that ask public.can_manage_bot / private.is_own_chat.

-- tables ----------------------------------------------------------------------------------------
create table public.power_ups (
  id uuid primary key default gen_random_uuid(),
  bot_id uuid not null references public.bots (id) on delete cascade,
  type text not null check (type in ('http', 'lead', 'link', 'handoff')),
  -- The tool's name as the model sees it: a short identifier every provider accepts.
  name text not null check (name ~ '^[a-zA-Z][a-zA-Z0-9_-]{0,63}$'),
  -- A label for people (the list, the visitor's "Looked up your order" line).
  label text not null default '' check (char_length(label) <= 120),
  description text not null default '' check (char_length(description) <= 2000),
  enabled boolean not null default true,
  example_phrases text[] not null default '{}' check (cardinality(example_phrases) <= 20),
  settings jsonb not null default '{}' check (jsonb_typeof(settings) = 'object'),
  call_count integer not null default 0,
  last_called_at timestamptz,
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (bot_id, name)
);
comment on table public.power_ups is
  'An action of a bot: http (a tool the model calls: method, url, headers, parameters JSON Schema, body, response_path, max_chars, timeout_ms), lead (fields), link (link_label, link_url) or handoff (handoff_text). call_count is kept by the engine.';
create index power_ups_bot_id_idx on public.power_ups (bot_id);

create table public.power_up_secrets (
  power_up_id uuid not null references public.power_ups (id) on delete cascade,
  name text not null check (char_length(name) between 1 and 100),
  value text not null check (char_length(value) between 1 and 4000),
  updated_at timestamptz not null default now(),
  primary key (power_up_id, name)
);
comment on table public.power_up_secrets is
  'Secret header values of an http power-up, used where its headers say {{secret.NAME}}. Service role only; written through set_power_up_secret().';

create table public.power_up_calls (
  id uuid primary key default gen_random_uuid(),
  power_up_id uuid references public.power_ups (id) on delete set null,
  bot_id uuid not null references public.bots (id) on delete cascade,
  chat_id uuid references public.chats (id) on delete cascade,
  message_id uuid references public.messages (id) on delete cascade,
  name text not null,
  arguments jsonb not null default '{}',
  status text not null check (status in ('ok', 'error')),
  error_code text,
  request jsonb,
  result text check (result is null or char_length(result) <= 20000),
  duration_ms integer,
  created_at timestamptz not null default now()
);
comment on table public.power_up_calls is
  'A call the engine made to a power-up while answering: arguments, the request (secrets masked), a truncated result or an error code. Written by the engine (service role).';
create index power_up_calls_bot_id_created_at_idx on public.power_up_calls (bot_id, created_at desc);
create index power_up_calls_message_id_idx on public.power_up_calls (message_id);
create index power_up_calls_chat_id_idx on public.power_up_calls (chat_id);
create index power_up_calls_power_up_id_idx on public.power_up_calls (power_up_id);

create table public.leads (
  id uuid primary key default gen_random_uuid(),
  bot_id uuid not null references public.bots (id) on delete cascade,
  chat_id uuid references public.chats (id) on delete set null,
  power_up_id uuid references public.power_ups (id) on delete set null,
  fields jsonb not null check (jsonb_typeof(fields) = 'object'),
  created_at timestamptz not null default now()
);
comment on table public.leads is
  'Contact details a visitor left through a lead form (fields: name, email, phone, company, message). Added by submit_lead() for the visitor''s own chat.';
create index leads_bot_id_created_at_idx on public.leads (bot_id, created_at desc);
create index leads_chat_id_idx on public.leads (chat_id);
create index leads_power_up_id_idx on public.leads (power_up_id);

-- handoff state on chats, human replies and visitor-safe actions on messages
alter table public.chats
  add column needs_human boolean not null default false,
  add column handoff_requested_at timestamptz,
  add column handed_back_at timestamptz;
comment on column public.chats.needs_human is
  'A visitor asked for a person: the bot stays quiet until a team member hands the chat back (hand_back_chat).';
create index chats_needs_human_idx on public.chats (bot_id, last_message_at desc) where needs_human;

alter table public.messages drop constraint messages_role_check;
alter table public.messages add constraint messages_role_check check (role in ('user', 'assistant', 'human'));
alter table public.messages
  add column actions jsonb not null default '[]' check (jsonb_typeof(actions) = 'array'),
  add column author_id uuid references auth.users (id) on delete set null;
comment on column public.messages.actions is
  'What the visitor saw besides the text: [{type: tool, label, ok} | {type: lead_form, power_up_id, label, fields} | {type: link, label, url} | {type: handoff, text}]. Written by the engine.';
comment on column public.messages.author_id is 'A human reply (role human): the team member who wrote it.';

alter table public.power_ups enable row level security;
alter table public.power_up_secrets enable row level security;
alter table public.power_up_calls enable row level security;
alter table public.leads enable row level security;

-- triggers ----------------------------------------------------------------------------------------
-- Counters belong to the engine; clients change a power-up's configuration only.
create function private.protect_power_up_fields() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') then
    if tg_op = 'INSERT' then
      new.call_count := 0;
      new.last_called_at := null;
    elsif new.call_count is distinct from old.call_count
       or new.last_called_at is distinct from old.last_called_at
       or new.bot_id is distinct from old.bot_id then
      raise exception 'A power-up''s bot and call counters cannot be changed' using errcode = '42501';
    end if;
  end if;
  new.updated_at := now();
  return new;
end;
$$;
create trigger protect_power_up_fields before insert or update on public.power_ups
  for each row execute function private.protect_power_up_fields();

-- Security definer: counts each call on its power-up (the caller may not update it).
create function private.count_power_up_call() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.power_ups p set call_count = p.call_count + 1, last_called_at = new.created_at
  where p.id = new.power_up_id;
  return null;
end;
$$;
revoke execute on function private.count_power_up_call() from public, anon, authenticated;
create trigger count_power_up_call after insert on public.power_up_calls
  for each row execute function private.count_power_up_call();

-- Visitors may rename and share their chats, never change its handoff state themselves.
create function private.protect_chat_handoff() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') then
    if tg_op = 'INSERT' then
      new.needs_human := false;
      new.handoff_requested_at := null;
      new.handed_back_at := null;
    elsif new.needs_human is distinct from old.needs_human
       or new.handoff_requested_at is distinct from old.handoff_requested_at
       or new.handed_back_at is distinct from old.handed_back_at then
      raise exception 'The handoff state of a chat changes through request_handoff and hand_back_chat' using errcode = '42501';
    end if;
  end if;
  return new;
end;
$$;
create trigger protect_chat_handoff before insert or update on public.chats
  for each row execute function private.protect_chat_handoff();

-- A client's own turn carries no actions and no author (only the engine and reply_as_human set them).
create function private.protect_message_actions() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') then
    new.actions := '[]';
    new.author_id := null;
  end if;
  return new;
end;
$$;
create trigger protect_message_actions before insert on public.messages
  for each row execute function private.protect_message_actions();

-- Lead fields stay in the same row as the bot of their chat.
create function private.lead_bot_matches(chat_id uuid, power_up_id uuid, bot_id uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select (lead_bot_matches.chat_id is null
          or exists (select 1 from public.chats c where c.id = lead_bot_matches.chat_id and c.bot_id = lead_bot_matches.bot_id))
     and (lead_bot_matches.power_up_id is null
          or exists (select 1 from public.power_ups p where p.id = lead_bot_matches.power_up_id and p.bot_id = lead_bot_matches.bot_id));
$$;
revoke execute on function private.lead_bot_matches(uuid, uuid, uuid) from public, anon;
grant execute on function private.lead_bot_matches(uuid, uuid, uuid) to authenticated, service_role;

-- policies: power_ups -------------------------------------------------------------------------------
create policy "Team members can read their bots' power-ups" on public.power_ups
  for select to authenticated using ((select private.has_bot_role(bot_id, null)));
create policy "Platform admins can read all power-ups" on public.power_ups
  for select to authenticated using ((select private.is_platform_admin()));
create policy "Team admins can create power-ups" on public.power_ups
  for insert to authenticated with check ((select public.can_manage_bot(bot_id)));
create policy "Team admins can update power-ups" on public.power_ups
  for update to authenticated
  using ((select public.can_manage_bot(bot_id))) with check ((select public.can_manage_bot(bot_id)));
create policy "Team admins can delete power-ups" on public.power_ups
  for delete to authenticated using ((select public.can_manage_bot(bot_id)));

-- power_up_secrets: no policies, no grants to clients.
revoke all on public.power_up_secrets from anon, authenticated;

-- policies: power_up_calls (written by the engine only) ----------------------------------------------
create policy "Team members can read their bots' power-up calls" on public.power_up_calls
  for select to authenticated using ((select private.has_bot_role(bot_id, null)));
create policy "Platform admins can read all power-up calls" on public.power_up_calls
  for select to authenticated using ((select private.is_platform_admin()));
revoke insert, update, delete on public.power_up_calls from anon, authenticated;

-- policies: leads -----------------------------------------------------------------------------------
create policy "Team members can read their bots' leads" on public.leads
  for select to authenticated using ((select private.has_bot_role(bot_id, null)));
create policy "Platform admins can read all leads" on public.leads
  for select to authenticated using ((select private.is_platform_admin()));
create policy "Team admins can delete leads" on public.leads
  for delete to authenticated using ((select public.can_manage_bot(bot_id)));
revoke insert, update on public.leads from anon, authenticated;

-- RPCs ------------------------------------------------------------------------------------------------
-- Errors: PT404 power_up_not_found / chat_not_found, 42501 not allowed, 22023 invalid input,
-- PT429 rate_limited.

-- Security definer: power_up_secrets is closed to clients; the caller must manage the bot.
create function private.set_power_up_secret(power_up_id uuid, name text, value text) returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  the_bot uuid;
begin
  select p.bot_id into the_bot from public.power_ups p where p.id = set_power_up_secret.power_up_id;
  if the_bot is null or not private.has_bot_role(the_bot, null) then
    raise exception 'Power-up not found' using errcode = 'PT404', hint = 'power_up_not_found';
  end if;
  if not public.can_manage_bot(the_bot) then
    raise exception 'Only the team''s owners and admins change power-up secrets' using errcode = '42501';
  end if;
  if coalesce(set_power_up_secret.value, '') = '' then
    delete from public.power_up_secrets s
    where s.power_up_id = set_power_up_secret.power_up_id and s.name = set_power_up_secret.name;
    return;
  end if;
  insert into public.power_up_secrets (power_up_id, name, value, updated_at)
  values (set_power_up_secret.power_up_id, set_power_up_secret.name, set_power_up_secret.value, now())
  on conflict on constraint power_up_secrets_pkey do update set value = excluded.value, updated_at = now();
end;
$$;
comment on function private.set_power_up_secret(uuid, text, text) is
  'Sets (or with an empty value removes) a secret header value of a power-up. Owners and admins of the bot''s team.';
revoke execute on function private.set_power_up_secret(uuid, text, text) from public, anon;
grant execute on function private.set_power_up_secret(uuid, text, text) to authenticated, service_role;

-- Security definer: names and dates only, never values.
create function private.power_up_secret_names(power_up_id uuid) returns table (name text, updated_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select s.name, s.updated_at from public.power_up_secrets s
  join public.power_ups p on p.id = s.power_up_id
  where s.power_up_id = power_up_secret_names.power_up_id
    and (private.has_bot_role(p.bot_id, null) or private.is_platform_admin())
  order by s.name;
$$;
comment on function private.power_up_secret_names(uuid) is 'Which secrets of a power-up are set (names only), for its team.';
revoke execute on function private.power_up_secret_names(uuid) from public, anon;
grant execute on function private.power_up_secret_names(uuid) to authenticated, service_role;

-- Security definer: leads take no inserts from clients; this checks the chat is the caller's own,
-- the power-up is an enabled lead form of its bot, and keeps only the fields the form asks for.
create function private.submit_lead(chat_id uuid, power_up_id uuid, fields jsonb) returns uuid
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  the_bot uuid;
  form jsonb;
  wanted text[];
  required text[];
  kept jsonb := '{}';
  key text;
  val text;
  lead uuid;
begin
  if not private.is_own_chat(submit_lead.chat_id) then
    raise exception 'Chat not found' using errcode = 'PT404', hint = 'chat_not_found';
  end if;
  select c.bot_id into the_bot from public.chats c where c.id = submit_lead.chat_id;
  select p.settings into form from public.power_ups p
  where p.id = submit_lead.power_up_id and p.bot_id = the_bot and p.type = 'lead' and p.enabled;
  if form is null then
    raise exception 'Power-up not found' using errcode = 'PT404', hint = 'power_up_not_found';
  end if;
  if jsonb_typeof(submit_lead.fields) is distinct from 'object' then
    raise exception 'fields must be an object' using errcode = '22023', hint = 'invalid_input';
  end if;
  wanted := coalesce(array(select jsonb_array_elements_text(form -> 'fields')), '{}');
  required := coalesce(array(select jsonb_array_elements_text(form -> 'required')), '{}');
  foreach key in array wanted loop
    val := btrim(coalesce(submit_lead.fields ->> key, ''));
    if char_length(val) > 2000 then
      raise exception 'The field % is too long', key using errcode = '22023', hint = 'invalid_input', detail = key;
    end if;
    if val = '' then
      if key = any(required) then
        raise exception 'The field % is required', key using errcode = '22023', hint = 'invalid_input', detail = key;
      end if;
      continue;
    end if;
    if key = 'email' and val !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
      raise exception 'The e-mail address is not valid' using errcode = '22023', hint = 'invalid_input', detail = key;
    end if;
    if key = 'phone' and val !~ '^[+0-9 ()./-]{5,40}$' then
      raise exception 'The phone number is not valid' using errcode = '22023', hint = 'invalid_input', detail = key;
    end if;
    kept := kept || jsonb_build_object(key, val);
  end loop;
  if kept = '{}' then
    raise exception 'Fill in at least one field' using errcode = '22023', hint = 'invalid_input';
  end if;
  if not private.consume_rate_limit('lead:' || (select auth.uid())::text, 10, 3600) then
    raise exception 'Too many forms sent; try again later' using errcode = 'PT429', hint = 'rate_limited';
  end if;
  insert into public.leads (bot_id, chat_id, power_up_id, fields)
  values (the_bot, submit_lead.chat_id, submit_lead.power_up_id, kept)
  returning id into lead;
  return lead;
end;
$$;
comment on function private.submit_lead(uuid, uuid, jsonb) is
  'A visitor leaves contact details through a lead form of their own chat''s bot. Validates e-mail and phone, keeps only the form''s fields, 10 per visitor per hour. Returns the lead id.';
revoke execute on function private.submit_lead(uuid, uuid, jsonb) from public, anon;
grant execute on function private.submit_lead(uuid, uuid, jsonb) to authenticated, service_role;

-- Security definer: the visitor (own chat) or the engine (service role) asks for a person.
-- Returns true when the chat was not waiting for a person before (so members are told once).
create function private.request_handoff(chat_id uuid) returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  was boolean;
begin
  if (select auth.role()) is distinct from 'service_role' and not private.is_own_chat(request_handoff.chat_id) then
    raise exception 'Chat not found' using errcode = 'PT404', hint = 'chat_not_found';
  end if;
  select c.needs_human into was from public.chats c where c.id = request_handoff.chat_id for update;
  if was is null then
    raise exception 'Chat not found' using errcode = 'PT404', hint = 'chat_not_found';
  end if;
  if was then
    return false;
  end if;
  update public.chats c set needs_human = true, handoff_requested_at = now()
  where c.id = request_handoff.chat_id;
  return true;
end;
$$;
comment on function private.request_handoff(uuid) is
  'Marks a chat as needing a person (the bot stays quiet). Its visitor or the engine. True when newly marked.';
revoke execute on function private.request_handoff(uuid) from public, anon;
grant execute on function private.request_handoff(uuid) to authenticated, service_role;

-- Security definer: a team member's reply is a message of role 'human' in the visitor's chat.
create function private.reply_as_human(chat_id uuid, content text) returns uuid
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  the_bot uuid;
  reply uuid;
begin
  select c.bot_id into the_bot from public.chats c where c.id = reply_as_human.chat_id;
  if the_bot is null or not (private.has_bot_role(the_bot, null) or private.is_platform_admin()) then
    raise exception 'Chat not found' using errcode = 'PT404', hint = 'chat_not_found';
  end if;
  if not public.can_manage_bot(the_bot) then
    raise exception 'Only the team''s owners and admins reply in a chat' using errcode = '42501';
  end if;
  if char_length(btrim(coalesce(reply_as_human.content, ''))) = 0 or char_length(reply_as_human.content) > 10000 then
    raise exception 'A reply has 1 to 10000 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  insert into public.messages (chat_id, role, content, author_id)
  values (reply_as_human.chat_id, 'human', reply_as_human.content, (select auth.uid()))
  returning id into reply;
  -- A reply takes the chat over, whether or not the visitor asked for a person.
  update public.chats c set needs_human = true, handoff_requested_at = coalesce(c.handoff_requested_at, now())
  where c.id = reply_as_human.chat_id and not c.needs_human;
  return reply;
end;
$$;
comment on function private.reply_as_human(uuid, text) is
  'A team owner or admin replies in a chat (role human); the chat stays with people until hand_back_chat.';
revoke execute on function private.reply_as_human(uuid, text) from public, anon;
grant execute on function private.reply_as_human(uuid, text) to authenticated, service_role;

create function private.hand_back_chat(chat_id uuid) returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  the_bot uuid;
begin
  select c.bot_id into the_bot from public.chats c where c.id = hand_back_chat.chat_id;
  if the_bot is null or not (private.has_bot_role(the_bot, null) or private.is_platform_admin()) then
    raise exception 'Chat not found' using errcode = 'PT404', hint = 'chat_not_found';
  end if;
  if not public.can_manage_bot(the_bot) then
    raise exception 'Only the team''s owners and admins hand a chat back' using errcode = '42501';
  end if;
  update public.chats c set needs_human = false, handed_back_at = now() where c.id = hand_back_chat.chat_id;
end;
$$;
comment on function private.hand_back_chat(uuid) is 'The bot answers again in this chat. Owners and admins of the bot''s team.';
revoke execute on function private.hand_back_chat(uuid) from public, anon;
grant execute on function private.hand_back_chat(uuid) to authenticated, service_role;

-- Public RPCs: security invoker wrappers of the private implementations above (which are
-- security definer because they write tables closed to clients, and check the caller themselves).

create function public.set_power_up_secret(power_up_id uuid, name text, value text) returns void
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.set_power_up_secret(set_power_up_secret.power_up_id, set_power_up_secret.name, set_power_up_secret.value);
$$;
comment on function public.set_power_up_secret(uuid, text, text) is 'See private.set_power_up_secret.';
revoke execute on function public.set_power_up_secret(uuid, text, text) from public, anon;
grant execute on function public.set_power_up_secret(uuid, text, text) to authenticated, service_role;

create function public.power_up_secret_names(power_up_id uuid) returns table (name text, updated_at timestamptz)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.power_up_secret_names(power_up_secret_names.power_up_id);
$$;
comment on function public.power_up_secret_names(uuid) is 'See private.power_up_secret_names.';
revoke execute on function public.power_up_secret_names(uuid) from public, anon;
grant execute on function public.power_up_secret_names(uuid) to authenticated, service_role;

create function public.submit_lead(chat_id uuid, power_up_id uuid, fields jsonb) returns uuid
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.submit_lead(submit_lead.chat_id, submit_lead.power_up_id, submit_lead.fields);
$$;
comment on function public.submit_lead(uuid, uuid, jsonb) is 'See private.submit_lead.';
revoke execute on function public.submit_lead(uuid, uuid, jsonb) from public, anon;
grant execute on function public.submit_lead(uuid, uuid, jsonb) to authenticated, service_role;

create function public.request_handoff(chat_id uuid) returns boolean
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.request_handoff(request_handoff.chat_id);
$$;
comment on function public.request_handoff(uuid) is 'See private.request_handoff.';
revoke execute on function public.request_handoff(uuid) from public, anon;
grant execute on function public.request_handoff(uuid) to authenticated, service_role;

create function public.reply_as_human(chat_id uuid, content text) returns uuid
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.reply_as_human(reply_as_human.chat_id, reply_as_human.content);
$$;
comment on function public.reply_as_human(uuid, text) is 'See private.reply_as_human.';
revoke execute on function public.reply_as_human(uuid, text) from public, anon;
grant execute on function public.reply_as_human(uuid, text) to authenticated, service_role;

create function public.hand_back_chat(chat_id uuid) returns void
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.hand_back_chat(hand_back_chat.chat_id);
$$;
comment on function public.hand_back_chat(uuid) is 'See private.hand_back_chat.';
revoke execute on function public.hand_back_chat(uuid) from public, anon;
grant execute on function public.hand_back_chat(uuid) to authenticated, service_role;
