-- The gallery reads bots through an RPC instead of row policies on public.bots.
--
-- "Anyone can read gallery bots" and "Signed-in users can read gallery bots" let any
-- client select every column of a listed bot, its instructions, model and team among
-- them (PostgREST's select=* takes all columns RLS lets through; column privileges
-- cannot tell a team member from a stranger, both being `authenticated`). They also
-- made "can read the bots row" mean "member or gallery bot", which the bot-auth guard
-- took for membership. From now on only the team (and platform admins) read bots rows;
-- the public gets the visitor-facing fields from gallery_bots() (listed bots) and
-- get_public_bot() (any public or password bot by id), both security definer.

drop policy "Anyone can read gallery bots" on public.bots;
drop policy "Signed-in users can read gallery bots" on public.bots;

create function public.gallery_bots()
returns table (
  id uuid, name text, description text, avatar_url text, language public.language_code,
  visibility public.bot_visibility, created_at timestamptz
)
language sql
stable
security definer
set search_path = ''
as $$
  select b.id, b.name, b.description, b.avatar_url, b.language, b.visibility, b.created_at
  from public.bots b
  where b.gallery_listed and b.visibility in ('public', 'password');
$$;
comment on function public.gallery_bots() is
  'Anyone: the public face (no instructions, model or team) of every bot listed in the gallery. Filter and order it like a table.';
revoke execute on function public.gallery_bots() from public, anon;
grant execute on function public.gallery_bots() to anon, authenticated, service_role;
