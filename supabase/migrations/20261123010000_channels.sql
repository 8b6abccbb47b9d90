-- Channels: where a bot is reachable besides its own page (web widget, HTTP API,
-- Slack, Discord, Telegram, WhatsApp), their credentials, the HTTP API's keys and
-- the deliveries the receivers already handled. A channel's conversations are
-- ordinary chats (channel set, user_id null, external_thread_id prefixed with the
-- channel's id; see 20261123001000_chat_engine.sql), opened by the answering engine.
--
-- Who sees what:
--   * the team's admins and owners manage a bot's channels and API keys (RLS
--     through private.has_bot_role(bot_id, 'admin')); other members read them;
--     platform admins read everything;
--   * credentials (bot tokens, signing secrets, app secrets) live in
--     channel_credentials, which no client role can read or write: admins write
--     them through set_channel_credentials() and learn only which ones are set
--     through channel_credential_status();
--   * an API key is shown once by create_api_key(); only its sha256 is stored, in
--     a column no client role may read;
--   * channel_deliveries is written and read by the channel functions with the
--     service role only.

-- types -----------------------------------------------------------------------
create type public.channel_type as enum ('web', 'api', 'slack', 'discord', 'telegram', 'whatsapp');
comment on type public.channel_type is 'Where a bot answers: web (widget and hosted page), api (HTTP API with keys), or a messaging platform.';

-- tables ----------------------------------------------------------------------
create table public.channels (
  id uuid primary key default gen_random_uuid(),
  bot_id uuid not null references public.bots (id) on delete cascade,
  type public.channel_type not null,
  name text not null check (char_length(btrim(name)) between 1 and 100),
  enabled boolean not null default true,
  settings jsonb not null default '{}'
    check (jsonb_typeof(settings) = 'object' and pg_column_size(settings) <= 8192),
  status text not null default 'not_connected'
    check (status in ('not_connected', 'connected', 'needs_attention')),
  last_error text check (last_error is null or char_length(last_error) <= 2000),
  last_event_at timestamptz,
  message_count integer not null default 0,
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.channels is
  'A place a bot answers: web, api, slack, discord, telegram or whatsapp. settings holds non-secret values only '
  '(ids, names, welcome text); secrets are in channel_credentials. status, last_error, last_event_at and '
  'message_count are kept by the channel functions.';
comment on column public.channels.settings is
  'Non-secret settings, e.g. slack {"team_id","bot_user_id"}, discord {"application_id","public_key"}, '
  'telegram {"bot_username"}, whatsapp {"phone_number_id"}, any {"welcome_message"}.';
create index channels_bot_id_idx on public.channels (bot_id, created_at);
create index channels_created_by_idx on public.channels (created_by);

create table public.channel_credentials (
  channel_id uuid primary key references public.channels (id) on delete cascade,
  secrets jsonb not null default '{}' check (jsonb_typeof(secrets) = 'object' and pg_column_size(secrets) <= 8192),
  updated_at timestamptz not null default now()
);
comment on table public.channel_credentials is
  'Secrets of a channel ({"bot_token", "signing_secret", "app_secret", ...}). Service role only; written through '
  'set_channel_credentials(), described (never shown) by channel_credential_status().';

create table public.api_keys (
  id uuid primary key default gen_random_uuid(),
  bot_id uuid not null references public.bots (id) on delete cascade,
  name text not null check (char_length(btrim(name)) between 1 and 100),
  prefix text not null check (char_length(prefix) between 8 and 20),
  key_hash text not null unique check (key_hash ~ '^[0-9a-f]{64}$'),
  rate_limit_per_minute integer not null default 60 check (rate_limit_per_minute between 1 and 10000),
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
comment on table public.api_keys is
  'Keys of the HTTP API, one bot each. The key is shown once by create_api_key(); key_hash (sha256 hex) is readable '
  'by the service role only; prefix is the first characters, for recognising a key in lists.';
create index api_keys_bot_id_idx on public.api_keys (bot_id, created_at);
create index api_keys_created_by_idx on public.api_keys (created_by);

create table public.channel_deliveries (
  channel_id uuid not null references public.channels (id) on delete cascade,
  event_id text not null check (char_length(event_id) between 1 and 300),
  received_at timestamptz not null default now(),
  primary key (channel_id, event_id)
);
comment on table public.channel_deliveries is
  'Platform deliveries already handled (Slack event ids, Telegram update ids, ...), so retries are not answered twice. Service role only.';
create index channel_deliveries_received_at_idx on public.channel_deliveries (received_at);

alter table public.channels enable row level security;
alter table public.channel_credentials enable row level security;
alter table public.api_keys enable row level security;
alter table public.channel_deliveries enable row level security;

-- No client role may touch the service-only tables (RLS without policies would
-- already hide them; the revoke makes it loud).
revoke all on public.channel_credentials, public.channel_deliveries from anon, authenticated;
revoke all on public.channels, public.api_keys from anon;
revoke truncate, references, trigger on public.channels, public.api_keys from authenticated;
-- API keys are created by create_api_key() only; the hash is never readable by clients.
revoke insert, select, update on public.api_keys from authenticated;
grant select (id, bot_id, name, prefix, rate_limit_per_minute, created_by, created_at, last_used_at, revoked_at)
  on public.api_keys to authenticated;
grant update (name, rate_limit_per_minute, revoked_at) on public.api_keys to authenticated;

-- helper functions ------------------------------------------------------------
-- The credential names each channel type accepts (anything else is a typo or an attack).
create function private.channel_secret_names(type public.channel_type) returns text[]
language sql
immutable
set search_path = ''
as $$
  select case channel_secret_names.type
    when 'slack' then array['bot_token', 'signing_secret', 'client_secret']
    when 'discord' then array['bot_token']
    when 'telegram' then array['bot_token', 'webhook_secret']
    when 'whatsapp' then array['access_token', 'app_secret', 'verify_token']
    else array[]::text[]
  end;
$$;
comment on function private.channel_secret_names(public.channel_type) is 'The names of the secrets a channel of this type may hold.';

-- triggers --------------------------------------------------------------------
create trigger channels_set_timestamps before insert or update on public.channels
  for each row execute function private.set_timestamps();

-- Clients may change a channel's name, enabled flag and settings; its bot, type,
-- creator and the state the functions keep are the system's.
create function private.protect_channel_fields() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') then
    if tg_op = 'INSERT' then
      if new.created_by is distinct from (select auth.uid()) then
        raise exception 'A channel is created by the signed-in user' using errcode = '42501';
      end if;
      new.status := 'not_connected';
      new.last_error := null;
      new.last_event_at := null;
      new.message_count := 0;
    else
      if new.id is distinct from old.id or new.bot_id is distinct from old.bot_id then
        raise exception 'A channel cannot be moved to another bot' using errcode = '42501';
      end if;
      if new.type is distinct from old.type then
        raise exception 'The type of a channel cannot be changed' using errcode = '42501';
      end if;
      if new.created_by is distinct from old.created_by then
        raise exception 'The creator of a channel cannot be changed' using errcode = '42501';
      end if;
      if new.status is distinct from old.status or new.last_error is distinct from old.last_error
         or new.last_event_at is distinct from old.last_event_at or new.message_count is distinct from old.message_count then
        raise exception 'The status of a channel is kept by Parley' using errcode = '42501';
      end if;
    end if;
  end if;
  return new;
end;
$$;
create trigger protect_channel_fields before insert or update on public.channels
  for each row execute function private.protect_channel_fields();

create function private.protect_api_key_fields() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') and old.revoked_at is not null
     and new.revoked_at is distinct from old.revoked_at then
    raise exception 'A revoked API key stays revoked' using errcode = '42501';
  end if;
  return new;
end;
$$;
create trigger protect_api_key_fields before update on public.api_keys
  for each row execute function private.protect_api_key_fields();

-- policies: channels ----------------------------------------------------------
create policy "Team members can read their bots' channels" on public.channels
  for select to authenticated
  using ((select private.has_bot_role(bot_id, null)));

create policy "Platform admins can read all channels" on public.channels
  for select to authenticated
  using ((select private.is_platform_admin()));

create policy "Team admins can create channels" on public.channels
  for insert to authenticated
  with check ((select private.has_bot_role(bot_id, 'admin')));

create policy "Team admins can update channels" on public.channels
  for update to authenticated
  using ((select private.has_bot_role(bot_id, 'admin')))
  with check ((select private.has_bot_role(bot_id, 'admin')));

create policy "Team admins can delete channels" on public.channels
  for delete to authenticated
  using ((select private.has_bot_role(bot_id, 'admin')));

-- policies: api_keys ----------------------------------------------------------
create policy "Team admins can read their bots' API keys" on public.api_keys
  for select to authenticated
  using ((select private.has_bot_role(bot_id, 'admin')));

create policy "Platform admins can read all API keys" on public.api_keys
  for select to authenticated
  using ((select private.is_platform_admin()));

create policy "Team admins can rename and revoke API keys" on public.api_keys
  for update to authenticated
  using ((select private.has_bot_role(bot_id, 'admin')))
  with check ((select private.has_bot_role(bot_id, 'admin')));

create policy "Team admins can delete API keys" on public.api_keys
  for delete to authenticated
  using ((select private.has_bot_role(bot_id, 'admin')));

-- (channel_credentials and channel_deliveries: no policies on purpose.)

-- RPCs ------------------------------------------------------------------------
-- Each public RPC is security invoker and calls a security definer helper in
-- private (channel_credentials and api_keys.key_hash are closed to clients); the
-- helpers check the caller's role on the channel's bot themselves.
--
-- Security definer: channel_credentials is closed to clients. Checks the
-- caller's role on the channel's bot itself. Values merge into what is stored;
-- a null value removes that secret.
create function private.set_channel_credentials(channel_id uuid, credentials jsonb) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  ch record;
  allowed text[];
  k text;
  v jsonb;
  merged jsonb;
begin
  select c.id, c.bot_id, c.type into ch from public.channels c where c.id = set_channel_credentials.channel_id;
  if ch.id is null or not private.has_bot_role(ch.bot_id, 'admin') then
    raise exception 'Only admins and owners of the bot''s team can set a channel''s credentials' using errcode = '42501';
  end if;
  if set_channel_credentials.credentials is null or jsonb_typeof(set_channel_credentials.credentials) <> 'object' then
    raise exception 'Credentials are an object of names and values' using errcode = '22023';
  end if;
  allowed := private.channel_secret_names(ch.type);
  select coalesce(s.secrets, '{}'::jsonb) into merged from public.channel_credentials s where s.channel_id = ch.id;
  merged := coalesce(merged, '{}'::jsonb);
  for k, v in select * from jsonb_each(set_channel_credentials.credentials) loop
    if not k = any (allowed) then
      raise exception 'A % channel has no secret named %', ch.type, k using errcode = '22023';
    end if;
    if v is null or v = 'null'::jsonb or (jsonb_typeof(v) = 'string' and btrim(v #>> '{}') = '') then
      merged := merged - k;
    elsif jsonb_typeof(v) <> 'string' or char_length(v #>> '{}') > 2000 then
      raise exception 'The secret % is a text of at most 2000 characters', k using errcode = '22023';
    else
      merged := merged || jsonb_build_object(k, btrim(v #>> '{}'));
    end if;
  end loop;
  insert into public.channel_credentials (channel_id, secrets, updated_at)
  values (ch.id, merged, now())
  on conflict on constraint channel_credentials_pkey
  do update set secrets = excluded.secrets, updated_at = now();
end;
$$;
comment on function private.set_channel_credentials(uuid, jsonb) is
  'Admins/owners: store (merge) a channel''s secrets, e.g. {"bot_token": "xoxb-..."}; a null or empty value removes one.';

-- Which secrets are set, never their values.
create function private.channel_credential_status(channel_id uuid)
returns table (name text, is_set boolean, updated_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select n.name,
         coalesce(s.secrets ? n.name, false),
         s.updated_at
  from public.channels c
  cross join lateral unnest(private.channel_secret_names(c.type)) as n (name)
  left join public.channel_credentials s on s.channel_id = c.id
  where c.id = channel_credential_status.channel_id
    and (private.has_bot_role(c.bot_id, 'admin') or private.is_platform_admin())
  order by n.name;
$$;
comment on function private.channel_credential_status(uuid) is
  'Admins/owners (and platform admins): which of the channel''s secrets are set (never the values).';

-- A new API key, returned once: "pk_" and 43 base64url characters (256 random bits).
create function private.create_api_key(bot_id uuid, name text, rate_limit_per_minute integer default 60)
returns table (id uuid, key text, prefix text)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  raw text;
  new_id uuid := gen_random_uuid();
begin
  if not private.has_bot_role(create_api_key.bot_id, 'admin') then
    raise exception 'Only admins and owners of the bot''s team can create API keys' using errcode = '42501';
  end if;
  raw := 'pk_' || translate(rtrim(encode(extensions.gen_random_bytes(32), 'base64'), '='), '+/', '-_');
  insert into public.api_keys (id, bot_id, name, prefix, key_hash, rate_limit_per_minute, created_by)
  values (new_id, create_api_key.bot_id, btrim(create_api_key.name), left(raw, 11),
          encode(extensions.digest(raw, 'sha256'), 'hex'), coalesce(create_api_key.rate_limit_per_minute, 60),
          (select auth.uid()));
  return query select new_id, raw, left(raw, 11);
end;
$$;
comment on function private.create_api_key(uuid, text, integer) is
  'Admins/owners: a new API key for the bot. The key is in this answer only; Parley keeps its sha256.';

create function public.set_channel_credentials(channel_id uuid, credentials jsonb) returns void
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.set_channel_credentials(set_channel_credentials.channel_id, set_channel_credentials.credentials);
$$;
comment on function public.set_channel_credentials(uuid, jsonb) is
  'Admins/owners: store (merge) a channel''s secrets, e.g. {"bot_token": "xoxb-..."}; a null or empty value removes one.';

create function public.channel_credential_status(channel_id uuid)
returns table (name text, is_set boolean, updated_at timestamptz)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.channel_credential_status(channel_credential_status.channel_id);
$$;
comment on function public.channel_credential_status(uuid) is
  'Admins/owners (and platform admins): which of the channel''s secrets are set (never the values).';

create function public.create_api_key(bot_id uuid, name text, rate_limit_per_minute integer default 60)
returns table (id uuid, key text, prefix text)
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.create_api_key(create_api_key.bot_id, create_api_key.name, create_api_key.rate_limit_per_minute);
$$;
comment on function public.create_api_key(uuid, text, integer) is
  'Admins/owners: a new API key for the bot. The key is in this answer only; Parley keeps its sha256.';

-- For the channel functions (service role): what happened on a channel. A
-- delivery answered adds its two turns to the count; a failure to answer puts
-- the channel in 'needs_attention' with the reason; a success clears it.
create function public.record_channel_event(channel_id uuid, messages integer default 0, error text default null)
returns void
language sql
volatile
security invoker
set search_path = ''
as $$
  update public.channels c
  set last_event_at = now(),
      message_count = c.message_count + greatest(coalesce(record_channel_event.messages, 0), 0),
      status = case when record_channel_event.error is not null then 'needs_attention'
                    when c.status = 'needs_attention' and record_channel_event.messages > 0 then 'connected'
                    else c.status end,
      last_error = case when record_channel_event.error is not null then left(record_channel_event.error, 2000)
                        when record_channel_event.messages > 0 then null
                        else c.last_error end
  where c.id = record_channel_event.channel_id;
$$;
comment on function public.record_channel_event(uuid, integer, text) is
  'Service role: a channel received a delivery (messages = turns stored) or failed to answer (error).';

-- grants ----------------------------------------------------------------------
revoke execute on function private.channel_secret_names(public.channel_type) from public;
grant execute on function private.channel_secret_names(public.channel_type) to authenticated, service_role;

revoke execute on function private.set_channel_credentials(uuid, jsonb) from public, anon;
grant execute on function private.set_channel_credentials(uuid, jsonb) to authenticated;
revoke execute on function private.channel_credential_status(uuid) from public, anon;
grant execute on function private.channel_credential_status(uuid) to authenticated, service_role;
revoke execute on function private.create_api_key(uuid, text, integer) from public, anon;
grant execute on function private.create_api_key(uuid, text, integer) to authenticated;
revoke execute on function public.set_channel_credentials(uuid, jsonb) from public, anon;
grant execute on function public.set_channel_credentials(uuid, jsonb) to authenticated;
revoke execute on function public.channel_credential_status(uuid) from public, anon;
grant execute on function public.channel_credential_status(uuid) to authenticated, service_role;
revoke execute on function public.record_channel_event(uuid, integer, text) from public, anon, authenticated;
grant execute on function public.record_channel_event(uuid, integer, text) to service_role;
revoke execute on function public.create_api_key(uuid, text, integer) from public, anon;
grant execute on function public.create_api_key(uuid, text, integer) to authenticated;

-- realtime ----------------------------------------------------------------------
-- The channel list shows a channel's status and last event as they change.
alter publication supabase_realtime add table public.channels;
