-- Bots and their secrets. Team admins and owners manage the team's bots; anyone
-- may read bots listed in the public gallery; the chat page reads a public or
-- password bot's face through get_public_bot(). Secrets live in tables no client
-- role can touch: bot_secrets (the chat password hash, written by
-- set_bot_password()) and team_provider_keys (model provider API keys, written
-- by set_team_provider_key()); edge functions read them with the service role.

-- types -----------------------------------------------------------------------
create type public.bot_visibility as enum ('private', 'public', 'password');
comment on type public.bot_visibility is 'private: team only; public: anyone may chat; password: anyone with the chat password.';

-- tables ----------------------------------------------------------------------
create table public.bots (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references public.teams (id) on delete cascade,
  name text not null check (char_length(btrim(name)) between 1 and 100),
  description text check (description is null or char_length(description) <= 1000),
  avatar_url text check (avatar_url is null or char_length(avatar_url) <= 2048),
  instructions text not null default '' check (char_length(instructions) <= 20000),
  language public.language_code not null default 'en',
  model_provider text not null default 'extractive'
    check (model_provider in ('extractive', 'openai', 'anthropic', 'google', 'mistral', 'groq', 'openai_compatible')),
  model text check (model is null or char_length(model) <= 200),
  temperature numeric(3, 2) not null default 0.2 check (temperature between 0 and 2),
  visibility public.bot_visibility not null default 'private',
  gallery_listed boolean not null default false,
  suggested_questions text[] not null default '{}'
    check (cardinality(suggested_questions) <= 10 and char_length(array_to_string(suggested_questions, '')) <= 2000),
  show_powered_by boolean not null default true,
  theme jsonb not null default '{}' check (jsonb_typeof(theme) = 'object' and pg_column_size(theme) <= 4096),
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.bots is 'A chatbot owned by a team: its persona, model, visibility and look. The chat password hash is in bot_secrets.';
comment on column public.bots.gallery_listed is 'Shown in the public gallery (only when visibility is public or password).';
comment on column public.bots.theme is 'Colours of the chat page and widget, e.g. {"primary":"#4f46e5","background":"#ffffff"}.';

create index bots_team_id_idx on public.bots (team_id);
create index bots_gallery_idx on public.bots (created_at desc) where gallery_listed and visibility <> 'private';
create index bots_created_by_idx on public.bots (created_by);

create table public.bot_secrets (
  bot_id uuid primary key references public.bots (id) on delete cascade,
  password_hash text,
  updated_at timestamptz not null default now()
);
comment on table public.bot_secrets is 'Secrets of a bot (chat password hash, bcrypt). Service role only; written through set_bot_password().';

create table public.team_provider_keys (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references public.teams (id) on delete cascade,
  provider text not null check (provider in ('openai', 'anthropic', 'google', 'mistral', 'groq', 'openai_compatible')),
  api_key text check (api_key is null or char_length(api_key) <= 1000),
  base_url text check (base_url is null or (char_length(base_url) <= 2048 and base_url ~ '^https?://')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (team_id, provider)
);
comment on table public.team_provider_keys is 'A team''s model provider API keys and base URLs. Service role only; written through set_team_provider_key().';

alter table public.bots enable row level security;
alter table public.bot_secrets enable row level security;
alter table public.team_provider_keys enable row level security;

-- No client role may touch the secret tables at all (RLS without policies would
-- already hide them; the revoke makes it loud).
revoke all on public.bot_secrets from anon, authenticated;
revoke all on public.team_provider_keys from anon, authenticated;
revoke truncate, references, trigger on public.bots from anon, authenticated;

-- helper functions ------------------------------------------------------------
create function private.bot_has_password(bot_id uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.bot_secrets s
    where s.bot_id = bot_has_password.bot_id and s.password_hash is not null
  );
$$;
comment on function private.bot_has_password(uuid) is 'Does the bot have a chat password set?';
revoke execute on function private.bot_has_password(uuid) from public;
grant execute on function private.bot_has_password(uuid) to authenticated, service_role;

-- triggers --------------------------------------------------------------------
create trigger bots_set_timestamps before insert or update on public.bots
  for each row execute function private.set_timestamps();
create trigger team_provider_keys_set_timestamps before insert or update on public.team_provider_keys
  for each row execute function private.set_timestamps();

create function private.protect_bot_fields() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') then
    if tg_op = 'UPDATE' then
      if new.id is distinct from old.id then
        raise exception 'The id of a bot cannot be changed' using errcode = '42501';
      end if;
      if new.team_id is distinct from old.team_id then
        raise exception 'A bot cannot be moved to another team' using errcode = '42501';
      end if;
      if new.created_by is distinct from old.created_by then
        raise exception 'The creator of a bot cannot be changed' using errcode = '42501';
      end if;
    elsif new.created_by is distinct from (select auth.uid()) then
      raise exception 'A bot is created by the signed-in user' using errcode = '42501';
    end if;
  end if;
  -- A password bot nobody can open is a mistake: the password comes first.
  if new.visibility = 'password'
     and (tg_op = 'INSERT' or old.visibility <> 'password')
     and not private.bot_has_password(new.id) then
    raise exception 'Set a chat password (set_bot_password) before making the bot password-protected'
      using errcode = '22023';
  end if;
  return new;
end;
$$;
create trigger protect_bot_fields before insert or update on public.bots
  for each row execute function private.protect_bot_fields();

-- policies: bots --------------------------------------------------------------
create policy "Team members can read their team's bots" on public.bots
  for select to authenticated
  using ((select private.has_team_role(team_id)));

create policy "Platform admins can read all bots" on public.bots
  for select to authenticated
  using ((select private.is_platform_admin()));

create policy "Anyone can read gallery bots" on public.bots
  for select to anon
  using (gallery_listed and visibility in ('public', 'password'));

create policy "Signed-in users can read gallery bots" on public.bots
  for select to authenticated
  using (gallery_listed and visibility in ('public', 'password'));

create policy "Team admins can create bots" on public.bots
  for insert to authenticated
  with check ((select private.has_team_role(team_id, 'admin')));

create policy "Team admins can update bots" on public.bots
  for update to authenticated
  using ((select private.has_team_role(team_id, 'admin')))
  with check ((select private.has_team_role(team_id, 'admin')));

create policy "Team admins can delete bots" on public.bots
  for delete to authenticated
  using ((select private.has_team_role(team_id, 'admin')));

-- (bot_secrets and team_provider_keys: no policies on purpose.)

-- RPCs ------------------------------------------------------------------------
-- The chat page's view of a bot: public or password bots only, and only the
-- fields a visitor sees (not instructions, model or team). Security definer so
-- that unlisted public bots are reachable by id without being listable.
create function public.get_public_bot(bot_id uuid)
returns table (
  id uuid, name text, description text, avatar_url text, language public.language_code,
  visibility public.bot_visibility, suggested_questions text[], show_powered_by boolean, theme jsonb
)
language sql
stable
security definer
set search_path = ''
as $$
  select b.id, b.name, b.description, b.avatar_url, b.language,
         b.visibility, b.suggested_questions, b.show_powered_by, b.theme
  from public.bots b
  where b.id = get_public_bot.bot_id and b.visibility <> 'private';
$$;
comment on function public.get_public_bot(uuid) is 'Anyone: the visitor-facing fields of a public or password-protected bot, by id.';

-- Security definer: bot_secrets is closed to clients. Checks the caller's role
-- in the bot's team itself.
create function public.set_bot_password(bot_id uuid, password text) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  bot_team uuid;
begin
  select b.team_id into bot_team from public.bots b where b.id = set_bot_password.bot_id;
  if bot_team is null or not private.has_team_role(bot_team, 'admin') then
    raise exception 'Only admins and owners of the bot''s team can set its password' using errcode = '42501';
  end if;

  if set_bot_password.password is null then
    delete from public.bot_secrets s where s.bot_id = set_bot_password.bot_id;
    update public.bots b set visibility = 'private'
    where b.id = set_bot_password.bot_id and b.visibility = 'password';
    return;
  end if;

  if char_length(set_bot_password.password) not between 4 and 128 then
    raise exception 'A chat password has 4 to 128 characters' using errcode = '22023';
  end if;
  insert into public.bot_secrets (bot_id, password_hash, updated_at)
  values (set_bot_password.bot_id, extensions.crypt(set_bot_password.password, extensions.gen_salt('bf')), now())
  on conflict on constraint bot_secrets_pkey
  do update set password_hash = excluded.password_hash, updated_at = now();
  update public.bots b set visibility = 'password'
  where b.id = set_bot_password.bot_id and b.visibility <> 'password';
end;
$$;
comment on function public.set_bot_password(uuid, text) is
  'Admins/owners: set the chat password (the bot becomes password-protected) or remove it with null (the bot becomes private).';

-- For edge functions (service role): does this password open the bot?
create function public.check_bot_password(bot_id uuid, password text) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((
    select s.password_hash = extensions.crypt(check_bot_password.password, s.password_hash)
    from public.bot_secrets s
    join public.bots b on b.id = s.bot_id
    where s.bot_id = check_bot_password.bot_id
      and b.visibility = 'password'
      and s.password_hash is not null
      and check_bot_password.password is not null
  ), false);
$$;
comment on function public.check_bot_password(uuid, text) is 'Service role: true when the password opens this password-protected bot.';

create function public.set_team_provider_key(team_id uuid, provider text, api_key text, base_url text default null) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not private.has_team_role(set_team_provider_key.team_id, 'admin') then
    raise exception 'Only admins and owners of the team can set provider keys' using errcode = '42501';
  end if;
  if set_team_provider_key.api_key is null and set_team_provider_key.base_url is null then
    raise exception 'Give an API key, a base URL or both' using errcode = '22023';
  end if;
  insert into public.team_provider_keys (team_id, provider, api_key, base_url)
  values (set_team_provider_key.team_id, set_team_provider_key.provider,
          nullif(btrim(set_team_provider_key.api_key), ''), nullif(btrim(set_team_provider_key.base_url), ''))
  on conflict on constraint team_provider_keys_team_id_provider_key
  do update set api_key = excluded.api_key, base_url = excluded.base_url;
end;
$$;
comment on function public.set_team_provider_key(uuid, text, text, text) is 'Admins/owners: store (or replace) the team''s API key and base URL for a model provider.';

create function public.remove_team_provider_key(team_id uuid, provider text) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not private.has_team_role(remove_team_provider_key.team_id, 'admin') then
    raise exception 'Only admins and owners of the team can remove provider keys' using errcode = '42501';
  end if;
  delete from public.team_provider_keys k
  where k.team_id = remove_team_provider_key.team_id and k.provider = remove_team_provider_key.provider;
end;
$$;
comment on function public.remove_team_provider_key(uuid, text) is 'Admins/owners: forget the team''s key for a provider.';

-- Which providers are configured, never the keys (only their last 4 characters).
create function public.list_team_provider_keys(team_id uuid)
returns table (provider text, has_api_key boolean, api_key_last4 text, base_url text, updated_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select k.provider,
         k.api_key is not null,
         case when char_length(k.api_key) >= 12 then right(k.api_key, 4) end,
         k.base_url,
         k.updated_at
  from public.team_provider_keys k
  where k.team_id = list_team_provider_keys.team_id
    and (private.has_team_role(list_team_provider_keys.team_id, 'admin') or private.is_platform_admin())
  order by k.provider;
$$;
comment on function public.list_team_provider_keys(uuid) is 'Admins/owners: which providers the team has configured (no keys).';

-- grants ----------------------------------------------------------------------
revoke execute on function public.get_public_bot(uuid) from public;
grant execute on function public.get_public_bot(uuid) to anon, authenticated, service_role;

revoke execute on function public.set_bot_password(uuid, text) from public, anon;
grant execute on function public.set_bot_password(uuid, text) to authenticated;

revoke execute on function public.check_bot_password(uuid, text) from public, anon, authenticated;
grant execute on function public.check_bot_password(uuid, text) to service_role;

revoke execute on function public.set_team_provider_key(uuid, text, text, text) from public, anon;
revoke execute on function public.remove_team_provider_key(uuid, text) from public, anon;
revoke execute on function public.list_team_provider_keys(uuid) from public, anon;
grant execute on function public.set_team_provider_key(uuid, text, text, text) to authenticated;
grant execute on function public.remove_team_provider_key(uuid, text) to authenticated;
grant execute on function public.list_team_provider_keys(uuid) to authenticated;
