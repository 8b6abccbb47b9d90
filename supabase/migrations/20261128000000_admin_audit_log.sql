-- The administrators' audit log (issue 23), shared by every admin action (issue 22's "move a
-- team to another plan" included).
--
-- public.admin_audit_log: one row per action a platform administrator took: who (id and e-mail
-- at the time, kept when the account is later deleted), what (an action name and its target),
-- when, and the target's state before and after. Platform administrators read it; nobody
-- changes it: no client role may write, and a trigger refuses update, delete and truncate to
-- every role, the service role and the table's owner included.
--
-- private.log_admin_action(...) is the only writer. Security-definer admin functions call it in
-- the same transaction as the change they make, so an action and its record commit together.
-- Edge functions acting with the service role (banning through the auth admin API, for one)
-- record through public.admin_log_action, which only the service role may execute and which
-- names the acting administrator explicitly.

create table public.admin_audit_log (
  id bigint generated always as identity primary key,
  actor_id uuid,
  actor_email text,
  action text not null check (action ~ '^[a-z][a-z0-9_.-]{0,79}$'),
  target_type text not null check (target_type ~ '^[a-z][a-z0-9_]{0,39}$'),
  target_id text,
  before jsonb,
  after jsonb,
  created_at timestamptz not null default now()
);
comment on table public.admin_audit_log is
  'Every platform administrator action: who, what, when, before/after. Platform administrators read it; nobody (service role included) updates or deletes it.';
comment on column public.admin_audit_log.actor_id is 'The administrator''s user id (no foreign key: the record outlives the account).';
comment on column public.admin_audit_log.actor_email is 'The administrator''s e-mail when the action was taken.';
comment on column public.admin_audit_log.action is 'What was done, e.g. user.ban, user.unban, user.delete, user.password_reset, bot.delete, bot.unlist, team.plan_change.';
comment on column public.admin_audit_log.target_type is 'What it was done to: user, team, bot, plan, power_up_type, ...';
comment on column public.admin_audit_log.target_id is 'The target''s id as text.';
comment on column public.admin_audit_log.before is 'The target''s relevant state before the action (null when it did not exist).';
comment on column public.admin_audit_log.after is 'The target''s relevant state after the action (null when it no longer exists).';

create index admin_audit_log_created_idx on public.admin_audit_log (created_at desc, id desc);
create index admin_audit_log_target_idx on public.admin_audit_log (target_type, target_id, created_at desc);
create index admin_audit_log_actor_idx on public.admin_audit_log (actor_id, created_at desc);

alter table public.admin_audit_log enable row level security;
revoke all on public.admin_audit_log from anon, authenticated;
grant select on public.admin_audit_log to authenticated;

create policy "Platform administrators read the audit log"
  on public.admin_audit_log for select to authenticated
  using ((select private.is_platform_admin()));

create function private.refuse_audit_change() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception 'The admin audit log cannot be changed' using errcode = '42501';
end;
$$;
comment on function private.refuse_audit_change() is 'Trigger: the admin audit log is append-only for every role.';
revoke execute on function private.refuse_audit_change() from public;

create trigger admin_audit_log_append_only before update or delete on public.admin_audit_log
  for each row execute function private.refuse_audit_change();
create trigger admin_audit_log_no_truncate before truncate on public.admin_audit_log
  for each statement execute function private.refuse_audit_change();

create function private.log_admin_action(
  action text,
  target_type text,
  target_id text,
  before jsonb default null,
  after jsonb default null,
  actor uuid default null
) returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  who uuid := coalesce(log_admin_action.actor, (select auth.uid()));
  entry bigint;
begin
  insert into public.admin_audit_log (actor_id, actor_email, action, target_type, target_id, before, after)
  values (
    who,
    (select u.email from auth.users u where u.id = who),
    log_admin_action.action,
    log_admin_action.target_type,
    log_admin_action.target_id,
    log_admin_action.before,
    log_admin_action.after
  )
  returning id into entry;
  return entry;
end;
$$;
comment on function private.log_admin_action(text, text, text, jsonb, jsonb, uuid) is
  'Append one entry to the admin audit log; the actor defaults to the caller. Called by security-definer admin functions in the same transaction as their change.';
revoke execute on function private.log_admin_action(text, text, text, jsonb, jsonb, uuid) from public;

-- For edge functions that act with the service role on an administrator's behalf (auth admin API
-- calls): they verified the caller is a platform administrator and name them as the actor.
create function public.admin_log_action(
  actor uuid,
  action text,
  target_type text,
  target_id text,
  before jsonb default null,
  after jsonb default null
) returns bigint
language plpgsql
security definer
set search_path = ''
as $$
begin
  if actor is null or not exists (select 1 from public.platform_admins pa where pa.user_id = admin_log_action.actor) then
    raise exception 'The actor is not a platform administrator' using errcode = '42501';
  end if;
  return private.log_admin_action(action, target_type, target_id, before, after, actor);
end;
$$;
comment on function public.admin_log_action(uuid, text, text, text, jsonb, jsonb) is
  'Service role only: record an action an edge function took for a platform administrator (the actor must be one).';
revoke execute on function public.admin_log_action(uuid, text, text, text, jsonb, jsonb) from public, anon, authenticated;
grant execute on function public.admin_log_action(uuid, text, text, text, jsonb, jsonb) to service_role;
