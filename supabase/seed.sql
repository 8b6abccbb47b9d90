-- Demo data for local development (`npm start` seeds a new database once).
--
-- Demo users (all with the password `parley-demo-123`, email already confirmed):
--   owner@parley.test           Olivia Owner   owner of the team "Acme Support"
--   admin@parley.test           Adam Admin     admin of the team "Acme Support"
--   visitor@parley.test         Vera Visitor   a signed-in user with no shared team
--   platform-admin@parley.test  Pat Platform   platform administrator (/admin)
-- Every user also has a personal team (made by the on_auth_user_created trigger).
--
-- Team "Acme Support" (slug acme-support) has two bots:
--   "Acme Help Center"  public and listed in the gallery; answers about Acme Cloud Notes, in English
--   "Acme Internal"     password-protected; chat password `open-sesame`
--
-- The ids below are fixed so that docs and tests can point at them.

-- users -----------------------------------------------------------------------
insert into auth.users (
  instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, last_sign_in_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at,
  confirmation_token, recovery_token, email_change_token_new, email_change, is_anonymous
)
select
  '00000000-0000-0000-0000-000000000000', u.id, 'authenticated', 'authenticated', u.email,
  extensions.crypt('parley-demo-123', extensions.gen_salt('bf')), now(), null,
  '{"provider":"email","providers":["email"]}',
  jsonb_build_object('display_name', u.display_name, 'preferred_language', 'en'),
  now(), now(), '', '', '', '', false
from (values
  ('a0000000-0000-4000-8000-000000000001'::uuid, 'owner@parley.test', 'Olivia Owner'),
  ('a0000000-0000-4000-8000-000000000002'::uuid, 'admin@parley.test', 'Adam Admin'),
  ('a0000000-0000-4000-8000-000000000003'::uuid, 'visitor@parley.test', 'Vera Visitor'),
  ('a0000000-0000-4000-8000-000000000004'::uuid, 'platform-admin@parley.test', 'Pat Platform')
) as u (id, email, display_name);

insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select
  u.id::text, u.id,
  jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true, 'phone_verified', false),
  'email', now(), now(), now()
from auth.users u
where u.email in ('owner@parley.test', 'admin@parley.test', 'visitor@parley.test', 'platform-admin@parley.test');

insert into public.platform_admins (user_id) values ('a0000000-0000-4000-8000-000000000004');

-- team ------------------------------------------------------------------------
-- The on_team_created trigger makes created_by the owner.
insert into public.teams (id, name, slug, personal, billing_email, created_by)
values ('b0000000-0000-4000-8000-000000000001', 'Acme Support', 'acme-support', false, 'billing@acme.test',
        'a0000000-0000-4000-8000-000000000001');

insert into public.team_members (team_id, user_id, role)
values ('b0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000002', 'admin');

-- bots ------------------------------------------------------------------------
insert into public.bots (
  id, team_id, name, description, instructions, language, model_provider, model, temperature,
  visibility, gallery_listed, suggested_questions, show_powered_by, theme, created_by
) values (
  'c0000000-0000-4000-8000-000000000001', 'b0000000-0000-4000-8000-000000000001',
  'Acme Help Center',
  'Answers questions about Acme Cloud Notes: plans, syncing, sharing and account help.',
  'You are the help center assistant of Acme Cloud Notes, a note-taking app that syncs across web, '
  || 'iOS and Android. Answer only from Acme''s help articles. Be brief and friendly, and link the '
  || 'article you used. If the answer is not in the articles, say so and point to support@acme.test.',
  'en', 'extractive', null, 0.2,
  'public', true,
  array['How do I share a notebook?', 'What does the Pro plan include?', 'Why are my notes not syncing?'],
  true, '{"primary":"#4f46e5","background":"#ffffff","text":"#111827"}',
  'a0000000-0000-4000-8000-000000000001'
), (
  'c0000000-0000-4000-8000-000000000002', 'b0000000-0000-4000-8000-000000000001',
  'Acme Internal',
  'For Acme staff: release notes, on-call runbooks and the HR handbook.',
  'You help Acme employees find internal procedures. Answer from the internal handbook only.',
  'en', 'extractive', null, 0.2,
  'private', false,
  array['Who is on call this week?', 'How do I request leave?'],
  false, '{"primary":"#0f766e","background":"#ffffff","text":"#111827"}',
  'a0000000-0000-4000-8000-000000000002'
);

-- The chat password (bcrypt, as set_bot_password stores it); the bot becomes
-- password-protected once the hash exists.
insert into public.bot_secrets (bot_id, password_hash)
values ('c0000000-0000-4000-8000-000000000002', extensions.crypt('open-sesame', extensions.gen_salt('bf')));
update public.bots set visibility = 'password' where id = 'c0000000-0000-4000-8000-000000000002';
