-- Product analytics events (page views and custom events, Plausible-style),
-- written by the `event` edge function with the service role and readable only
-- by platform administrators (the admin area's charts).

-- tables ----------------------------------------------------------------------
create table public.events (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(name) between 1 and 120),
  url text check (url is null or char_length(url) <= 2048),
  domain text check (domain is null or char_length(domain) <= 255),
  referrer text check (referrer is null or char_length(referrer) <= 2048),
  width integer check (width is null or width between 0 and 100000),
  hash_mode boolean not null default false,
  props jsonb not null default '{}' check (jsonb_typeof(props) = 'object' and pg_column_size(props) <= 8192),
  revenue jsonb check (revenue is null or (jsonb_typeof(revenue) = 'object' and pg_column_size(revenue) <= 1024)),
  user_id uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);
comment on table public.events is 'Analytics events. Inserted by the event edge function (service role); platform admins read them.';

create index events_created_at_idx on public.events (created_at desc);
create index events_name_created_at_idx on public.events (name, created_at desc);
create index events_user_id_idx on public.events (user_id);

alter table public.events enable row level security;
revoke insert, update, delete, truncate, references, trigger on public.events from anon, authenticated;

-- policies --------------------------------------------------------------------
create policy "Platform admins can read events" on public.events
  for select to authenticated
  using ((select private.is_platform_admin()));
