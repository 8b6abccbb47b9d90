-- Who is told of a test run's regressions (issue 20). Until now the team's owners were mailed;
-- a bot's test settings now choose: its team's owners, its admins, chosen members of its team,
-- and extra addresses (a support lead without a Parley account, a shared inbox). Each recipient
-- reads the mail in their language: a team member (or an extra address that is a Parley
-- account) in the language they use Parley in, any other address in the bot's language.
-- notify_regressions stays the switch for the whole mail.

alter table public.bot_test_settings
  add column notify_owners boolean not null default true,
  add column notify_admins boolean not null default false,
  add column notify_member_ids uuid[] not null default '{}' check (cardinality(notify_member_ids) <= 50),
  add column notify_emails text[] not null default '{}' check (cardinality(notify_emails) <= 20);
comment on column public.bot_test_settings.notify_owners is 'Mail the team''s owners about regressions.';
comment on column public.bot_test_settings.notify_admins is 'Mail the team''s admins about regressions.';
comment on column public.bot_test_settings.notify_member_ids is 'Chosen members of the bot''s team mailed about regressions (whatever their role).';
comment on column public.bot_test_settings.notify_emails is 'Extra addresses mailed about regressions (lower case, at most 20); non-members read it in the bot''s language.';

-- Recipients are members of the bot's team; addresses are trimmed, lower-cased, deduplicated
-- and must look like addresses.
create function private.check_test_notify_recipients() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  address text;
  clean text[] := '{}';
begin
  if tg_op = 'INSERT' or new.notify_member_ids is distinct from old.notify_member_ids then
    if exists (
      select 1 from unnest(new.notify_member_ids) r(id)
      where not exists (select 1 from public.team_members tm join public.bots b on b.team_id = tm.team_id
                        where b.id = new.bot_id and tm.user_id = r.id)
    ) then
      -- (the app's wording for these two refusals is keyed on the messages' openings)
      raise exception 'This user is not a member of the team of this bot' using errcode = '22023';
    end if;
    new.notify_member_ids := array(select distinct r.id from unnest(new.notify_member_ids) r(id));
  end if;
  if tg_op = 'INSERT' or new.notify_emails is distinct from old.notify_emails then
    foreach address in array new.notify_emails loop
      address := lower(btrim(address));
      if address = '' then
        continue;
      end if;
      if char_length(address) > 320 or address !~ '^[^@\s,;<>]+@[^@\s,;<>]+\.[^@\s,;<>]+$' then
        raise exception 'This is not a valid email address: %', address using errcode = '22023';
      end if;
      if not address = any (clean) then
        clean := clean || address;
      end if;
    end loop;
    new.notify_emails := clean;
  end if;
  return new;
end;
$$;
comment on function private.check_test_notify_recipients() is
  'Trigger: regression recipients are members of the bot''s team; extra addresses are valid, lower case and distinct.';
create trigger bot_test_settings_check_recipients before insert or update on public.bot_test_settings
  for each row execute function private.check_test_notify_recipients();

-- The addresses and languages of the people to tell about a bot's regressions, each once.
create function private.test_regression_recipients(bot_id uuid) returns table (email text, language text)
language sql
stable
security definer
set search_path = ''
as $$
  with settings as (
    select coalesce(s.notify_owners, true) as owners, coalesce(s.notify_admins, false) as admins,
           coalesce(s.notify_member_ids, '{}') as member_ids, coalesce(s.notify_emails, '{}') as emails,
           b.team_id, b.language::text as bot_language
    from public.bots b left join public.bot_test_settings s on s.bot_id = b.id
    where b.id = test_regression_recipients.bot_id
  ),
  members as (
    select lower(u.email::text) as email, p.preferred_language::text as language
    from settings st
    join public.team_members tm on tm.team_id = st.team_id
    join auth.users u on u.id = tm.user_id
    left join public.profiles p on p.id = u.id
    where u.email is not null
      and ((st.owners and tm.role = 'owner') or (st.admins and tm.role = 'admin') or tm.user_id = any (st.member_ids))
  ),
  extra as (
    select e.address as email, coalesce(
      (select p.preferred_language::text from auth.users u join public.profiles p on p.id = u.id where lower(u.email::text) = e.address limit 1),
      st.bot_language) as language
    from settings st cross join lateral unnest(st.emails) e(address)
  )
  select distinct on (r.email) r.email, coalesce(r.language, 'en')
  from (select m.email, m.language, 0 as rank from members m union all select x.email, x.language, 1 from extra x) r
  order by r.email, r.rank;
$$;
comment on function private.test_regression_recipients(uuid) is
  'The addresses and interface languages of those the bot''s test settings name for regression mail (owners, admins, chosen members, extra addresses in the bot''s language unless they are Parley accounts). Service role only.';
revoke execute on function private.test_regression_recipients(uuid) from public, anon, authenticated;
grant execute on function private.test_regression_recipients(uuid) to service_role;

create function public.test_regression_recipients(bot_id uuid) returns table (email text, language text)
language sql
stable
security invoker
set search_path = ''
as $$ select * from private.test_regression_recipients(bot_id => test_regression_recipients.bot_id) $$;
comment on function public.test_regression_recipients(uuid) is 'See private.test_regression_recipients. Service role only (the tests function).';
revoke execute on function public.test_regression_recipients(uuid) from public, anon, authenticated;
grant execute on function public.test_regression_recipients(uuid) to service_role;
