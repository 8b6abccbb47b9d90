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
insert into public.teams (id, name, slug, personal, billing_email, created_by, plan_id)
values ('b0000000-0000-4000-8000-000000000001', 'Acme Support', 'acme-support', false, 'billing@acme.test',
        'a0000000-0000-4000-8000-000000000001', 'pro');

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

-- knowledge: the Acme Help Center's data source ------------------------------
-- A web source "Acme Help Center articles" (as if crawled from
-- https://help.acmecloudnotes.com) with 11 articles about Acme Cloud Notes, chunked the way
-- the ingest function chunks (heading paths, ~1000 characters), so a fresh
-- `npm start` bot answers questions with citations. Re-syncing it would try to
-- fetch the (fictional) site, so its schedule is 'never'.
insert into public.data_sources (id, bot_id, type, name, settings, sync_schedule, status, last_synced_at, document_count, chunk_count, created_by)
values ('e7000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'web', 'Acme Help Center articles',
  '{"url": "https://help.acmecloudnotes.com/", "mode": "crawl", "max_depth": 2, "max_pages": 100}', 'never', 'ready', now(), 11, 35,
  'a0000000-0000-4000-8000-000000000001');

insert into public.documents (id, data_source_id, bot_id, title, url, language, content_hash, size_bytes, status, content)
values ('e7100000-0000-4000-8000-000000000001', 'e7000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'Getting started with Acme Cloud Notes', 'https://help.acmecloudnotes.com/getting-started', 'en',
  encode(extensions.digest('# Getting started with Acme Cloud Notes

Acme Cloud Notes keeps your notes, checklists and files in one place and syncs them across the web, Windows, macOS, iOS and Android. This guide takes about five minutes.

## Create your account

Go to app.acmecloudnotes.com and choose Sign up. You can sign up with an email address and password, or with your Google or Apple account. We send a confirmation email; click the link in it within 24 hours to activate your account.

## Your first note

Click the New note button (or press Ctrl+N, Cmd+N on a Mac). Give the note a title, then start typing. Notes save automatically every few seconds; there is no Save button. To add a checklist, type [] followed by a space.

## Install the apps

Download the desktop apps from acmecloudnotes.com/download and the mobile apps from the App Store or Google Play. Sign in with the same account and your notes appear within seconds.', 'sha256'), 'hex'), 913, 'ready',
  '# Getting started with Acme Cloud Notes

Acme Cloud Notes keeps your notes, checklists and files in one place and syncs them across the web, Windows, macOS, iOS and Android. This guide takes about five minutes.

## Create your account

Go to app.acmecloudnotes.com and choose Sign up. You can sign up with an email address and password, or with your Google or Apple account. We send a confirmation email; click the link in it within 24 hours to activate your account.

## Your first note

Click the New note button (or press Ctrl+N, Cmd+N on a Mac). Give the note a title, then start typing. Notes save automatically every few seconds; there is no Save button. To add a checklist, type [] followed by a space.

## Install the apps

Download the desktop apps from acmecloudnotes.com/download and the mobile apps from the App Store or Google Play. Sign in with the same account and your notes appear within seconds.');
insert into public.chunks (document_id, bot_id, position, heading_path, content, token_count) values
  ('e7100000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 0, 'Getting started with Acme Cloud Notes', 'Acme Cloud Notes keeps your notes, checklists and files in one place and syncs them across the web, Windows, macOS, iOS and Android. This guide takes about five minutes.', 43),
  ('e7100000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 1, 'Getting started with Acme Cloud Notes > Create your account', 'Go to app.acmecloudnotes.com and choose Sign up. You can sign up with an email address and password, or with your Google or Apple account. We send a confirmation email; click the link in it within 24 hours to activate your account.', 58),
  ('e7100000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 2, 'Getting started with Acme Cloud Notes > Your first note', 'Click the New note button (or press Ctrl+N, Cmd+N on a Mac). Give the note a title, then start typing. Notes save automatically every few seconds; there is no Save button. To add a checklist, type [] followed by a space.', 55),
  ('e7100000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 3, 'Getting started with Acme Cloud Notes > Install the apps', 'Download the desktop apps from acmecloudnotes.com/download and the mobile apps from the App Store or Google Play. Sign in with the same account and your notes appear within seconds.', 46);

insert into public.documents (id, data_source_id, bot_id, title, url, language, content_hash, size_bytes, status, content)
values ('e7100000-0000-4000-8000-000000000002', 'e7000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'Organizing notes with notebooks and tags', 'https://help.acmecloudnotes.com/notebooks-and-tags', 'en',
  encode(extensions.digest('# Organizing notes with notebooks and tags

## Notebooks

A notebook is a folder for notes. Create one from the sidebar with the + button next to Notebooks. A note belongs to exactly one notebook; move it by dragging it onto another notebook or with Move to… in the note menu. Notebooks can be nested up to three levels deep.

## Tags

Tags cut across notebooks: a note can have up to 50 tags. Type # in a note to add a tag, or use the tag field under the title. Click a tag in the sidebar to see every note that has it.

## Pinning and favourites

Pin a note to keep it at the top of its notebook. Star a note to add it to Favourites, which appears at the top of the sidebar on every device.', 'sha256'), 'hex'), 694, 'ready',
  '# Organizing notes with notebooks and tags

## Notebooks

A notebook is a folder for notes. Create one from the sidebar with the + button next to Notebooks. A note belongs to exactly one notebook; move it by dragging it onto another notebook or with Move to… in the note menu. Notebooks can be nested up to three levels deep.

## Tags

Tags cut across notebooks: a note can have up to 50 tags. Type # in a note to add a tag, or use the tag field under the title. Click a tag in the sidebar to see every note that has it.

## Pinning and favourites

Pin a note to keep it at the top of its notebook. Star a note to add it to Favourites, which appears at the top of the sidebar on every device.');
insert into public.chunks (document_id, bot_id, position, heading_path, content, token_count) values
  ('e7100000-0000-4000-8000-000000000002', 'c0000000-0000-4000-8000-000000000001', 0, 'Organizing notes with notebooks and tags > Notebooks', 'A notebook is a folder for notes. Create one from the sidebar with the + button next to Notebooks. A note belongs to exactly one notebook; move it by dragging it onto another notebook or with Move to… in the note menu. Notebooks can be nested up to three levels deep.', 67),
  ('e7100000-0000-4000-8000-000000000002', 'c0000000-0000-4000-8000-000000000001', 1, 'Organizing notes with notebooks and tags > Tags', 'Tags cut across notebooks: a note can have up to 50 tags. Type # in a note to add a tag, or use the tag field under the title. Click a tag in the sidebar to see every note that has it.', 46),
  ('e7100000-0000-4000-8000-000000000002', 'c0000000-0000-4000-8000-000000000001', 2, 'Organizing notes with notebooks and tags > Pinning and favourites', 'Pin a note to keep it at the top of its notebook. Star a note to add it to Favourites, which appears at the top of the sidebar on every device.', 36);

insert into public.documents (id, data_source_id, bot_id, title, url, language, content_hash, size_bytes, status, content)
values ('e7100000-0000-4000-8000-000000000003', 'e7000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'Sharing notes and working together', 'https://help.acmecloudnotes.com/sharing', 'en',
  encode(extensions.digest('# Sharing notes and working together

## Share a note or notebook

Open the note or notebook, click Share, and enter the email addresses of the people you want to invite. Choose Can view or Can edit for each person. People without an Acme account are asked to create a free one.

## Public links

Turn on Public link in the Share dialog to get a read-only link anyone can open without signing in. You can turn the link off at any time; the old link then stops working. Public links are available on the Plus and Team plans.

## Editing together

Several people can edit the same note at the same time. You see their cursors in colour, and changes appear live. The note history (in the note menu) keeps every version for 30 days on Plus and for one year on Team.', 'sha256'), 'hex'), 761, 'ready',
  '# Sharing notes and working together

## Share a note or notebook

Open the note or notebook, click Share, and enter the email addresses of the people you want to invite. Choose Can view or Can edit for each person. People without an Acme account are asked to create a free one.

## Public links

Turn on Public link in the Share dialog to get a read-only link anyone can open without signing in. You can turn the link off at any time; the old link then stops working. Public links are available on the Plus and Team plans.

## Editing together

Several people can edit the same note at the same time. You see their cursors in colour, and changes appear live. The note history (in the note menu) keeps every version for 30 days on Plus and for one year on Team.');
insert into public.chunks (document_id, bot_id, position, heading_path, content, token_count) values
  ('e7100000-0000-4000-8000-000000000003', 'c0000000-0000-4000-8000-000000000001', 0, 'Sharing notes and working together > Share a note or notebook', 'Open the note or notebook, click Share, and enter the email addresses of the people you want to invite. Choose Can view or Can edit for each person. People without an Acme account are asked to create a free one.', 53),
  ('e7100000-0000-4000-8000-000000000003', 'c0000000-0000-4000-8000-000000000001', 1, 'Sharing notes and working together > Public links', 'Turn on Public link in the Share dialog to get a read-only link anyone can open without signing in. You can turn the link off at any time; the old link then stops working. Public links are available on the Plus and Team plans.', 57),
  ('e7100000-0000-4000-8000-000000000003', 'c0000000-0000-4000-8000-000000000001', 2, 'Sharing notes and working together > Editing together', 'Several people can edit the same note at the same time. You see their cursors in colour, and changes appear live. The note history (in the note menu) keeps every version for 30 days on Plus and for one year on Team.', 54);

insert into public.documents (id, data_source_id, bot_id, title, url, language, content_hash, size_bytes, status, content)
values ('e7100000-0000-4000-8000-000000000004', 'e7000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'Sync and offline access', 'https://help.acmecloudnotes.com/sync-and-offline', 'en',
  encode(extensions.digest('# Sync and offline access

## How sync works

Every change is saved on your device first and sent to our servers as soon as you are online. Other devices receive it within a few seconds. The sync indicator at the bottom of the sidebar shows a green tick when everything is up to date.

## Working offline

The desktop and mobile apps work fully offline: you can create, edit and delete notes without a connection. On the web app, turn on Offline mode in Settings > Devices to keep a copy in your browser. Changes made offline sync automatically when you reconnect.

## Conflicts

If the same paragraph was changed on two devices while offline, Acme keeps both versions and marks the note with a conflict banner. Open the banner to pick the version to keep or to merge them by hand.', 'sha256'), 'hex'), 781, 'ready',
  '# Sync and offline access

## How sync works

Every change is saved on your device first and sent to our servers as soon as you are online. Other devices receive it within a few seconds. The sync indicator at the bottom of the sidebar shows a green tick when everything is up to date.

## Working offline

The desktop and mobile apps work fully offline: you can create, edit and delete notes without a connection. On the web app, turn on Offline mode in Settings > Devices to keep a copy in your browser. Changes made offline sync automatically when you reconnect.

## Conflicts

If the same paragraph was changed on two devices while offline, Acme keeps both versions and marks the note with a conflict banner. Open the banner to pick the version to keep or to merge them by hand.');
insert into public.chunks (document_id, bot_id, position, heading_path, content, token_count) values
  ('e7100000-0000-4000-8000-000000000004', 'c0000000-0000-4000-8000-000000000001', 0, 'Sync and offline access > How sync works', 'Every change is saved on your device first and sent to our servers as soon as you are online. Other devices receive it within a few seconds. The sync indicator at the bottom of the sidebar shows a green tick when everything is up to date.', 60),
  ('e7100000-0000-4000-8000-000000000004', 'c0000000-0000-4000-8000-000000000001', 1, 'Sync and offline access > Working offline', 'The desktop and mobile apps work fully offline: you can create, edit and delete notes without a connection. On the web app, turn on Offline mode in Settings > Devices to keep a copy in your browser. Changes made offline sync automatically when you reconnect.', 65),
  ('e7100000-0000-4000-8000-000000000004', 'c0000000-0000-4000-8000-000000000001', 2, 'Sync and offline access > Conflicts', 'If the same paragraph was changed on two devices while offline, Acme keeps both versions and marks the note with a conflict banner. Open the banner to pick the version to keep or to merge them by hand.', 51);

insert into public.documents (id, data_source_id, bot_id, title, url, language, content_hash, size_bytes, status, content)
values ('e7100000-0000-4000-8000-000000000005', 'e7000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'Troubleshooting sync problems', 'https://help.acmecloudnotes.com/troubleshooting-sync', 'en',
  encode(extensions.digest('# Troubleshooting sync problems

## Notes are not showing up on another device

First check that both devices are signed in to the same account (Settings > Account shows the email). Then look at the sync indicator: a red cloud means the app cannot reach our servers. Check your internet connection and any firewall or VPN, which must allow connections to sync.acmecloudnotes.com on port 443.

## Force a full sync

In Settings > Advanced choose Resync all notes. The app downloads your notes again without deleting anything on the device. This can take a few minutes for large accounts.

## Still stuck?

Send us the sync log from Help > Export diagnostics together with a short description. Our support team answers within one business day, and within four hours on the Team plan.', 'sha256'), 'hex'), 781, 'ready',
  '# Troubleshooting sync problems

## Notes are not showing up on another device

First check that both devices are signed in to the same account (Settings > Account shows the email). Then look at the sync indicator: a red cloud means the app cannot reach our servers. Check your internet connection and any firewall or VPN, which must allow connections to sync.acmecloudnotes.com on port 443.

## Force a full sync

In Settings > Advanced choose Resync all notes. The app downloads your notes again without deleting anything on the device. This can take a few minutes for large accounts.

## Still stuck?

Send us the sync log from Help > Export diagnostics together with a short description. Our support team answers within one business day, and within four hours on the Team plan.');
insert into public.chunks (document_id, bot_id, position, heading_path, content, token_count) values
  ('e7100000-0000-4000-8000-000000000005', 'c0000000-0000-4000-8000-000000000001', 0, 'Troubleshooting sync problems > Notes are not showing up on another device', 'First check that both devices are signed in to the same account (Settings > Account shows the email). Then look at the sync indicator: a red cloud means the app cannot reach our servers. Check your internet connection and any firewall or VPN, which must allow connections to sync.acmecloudnotes.com on port 443.', 78),
  ('e7100000-0000-4000-8000-000000000005', 'c0000000-0000-4000-8000-000000000001', 1, 'Troubleshooting sync problems > Force a full sync', 'In Settings > Advanced choose Resync all notes. The app downloads your notes again without deleting anything on the device. This can take a few minutes for large accounts.', 43),
  ('e7100000-0000-4000-8000-000000000005', 'c0000000-0000-4000-8000-000000000001', 2, 'Troubleshooting sync problems > Still stuck?', 'Send us the sync log from Help > Export diagnostics together with a short description. Our support team answers within one business day, and within four hours on the Team plan.', 44);

insert into public.documents (id, data_source_id, bot_id, title, url, language, content_hash, size_bytes, status, content)
values ('e7100000-0000-4000-8000-000000000006', 'e7000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'Searching your notes', 'https://help.acmecloudnotes.com/search', 'en',
  encode(extensions.digest('# Searching your notes

Press Ctrl+K (Cmd+K on a Mac) or click the search field at the top to search all notes. Search looks at titles, note text, tags and the text inside attached PDFs and images (text in images is recognised automatically on the Plus and Team plans).

## Search operators

Use quotes for an exact phrase, for example "quarterly report". Add tag:travel to search only notes with a tag, notebook:Work to limit the search to a notebook, and created:2024 or updated:last-week to filter by date. Put a minus sign before a word to exclude it.

## Saved searches

Click Save search to keep a search in the sidebar. Saved searches update automatically as notes change.', 'sha256'), 'hex'), 679, 'ready',
  '# Searching your notes

Press Ctrl+K (Cmd+K on a Mac) or click the search field at the top to search all notes. Search looks at titles, note text, tags and the text inside attached PDFs and images (text in images is recognised automatically on the Plus and Team plans).

## Search operators

Use quotes for an exact phrase, for example "quarterly report". Add tag:travel to search only notes with a tag, notebook:Work to limit the search to a notebook, and created:2024 or updated:last-week to filter by date. Put a minus sign before a word to exclude it.

## Saved searches

Click Save search to keep a search in the sidebar. Saved searches update automatically as notes change.');
insert into public.chunks (document_id, bot_id, position, heading_path, content, token_count) values
  ('e7100000-0000-4000-8000-000000000006', 'c0000000-0000-4000-8000-000000000001', 0, 'Searching your notes', 'Press Ctrl+K (Cmd+K on a Mac) or click the search field at the top to search all notes. Search looks at titles, note text, tags and the text inside attached PDFs and images (text in images is recognised automatically on the Plus and Team plans).', 62),
  ('e7100000-0000-4000-8000-000000000006', 'c0000000-0000-4000-8000-000000000001', 1, 'Searching your notes > Search operators', 'Use quotes for an exact phrase, for example "quarterly report". Add tag:travel to search only notes with a tag, notebook:Work to limit the search to a notebook, and created:2024 or updated:last-week to filter by date. Put a minus sign before a word to exclude it.', 66),
  ('e7100000-0000-4000-8000-000000000006', 'c0000000-0000-4000-8000-000000000001', 2, 'Searching your notes > Saved searches', 'Click Save search to keep a search in the sidebar. Saved searches update automatically as notes change.', 26);

insert into public.documents (id, data_source_id, bot_id, title, url, language, content_hash, size_bytes, status, content)
values ('e7100000-0000-4000-8000-000000000007', 'e7000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'Importing and exporting notes', 'https://help.acmecloudnotes.com/import-export', 'en',
  encode(extensions.digest('# Importing and exporting notes

## Import

Go to Settings > Import. Acme Cloud Notes imports Evernote ENEX files, Markdown files and folders, OneNote notebooks (through the Microsoft sign-in) and plain text files. Images and attachments are kept. Large imports run in the background and you get an email when they finish.

## Export

To export one note, open the note menu and choose Export as PDF, Markdown or HTML. To export everything, go to Settings > Export and choose Download all notes; you receive a ZIP file with one Markdown file per note plus a folder of attachments. The export link stays valid for seven days.', 'sha256'), 'hex'), 623, 'ready',
  '# Importing and exporting notes

## Import

Go to Settings > Import. Acme Cloud Notes imports Evernote ENEX files, Markdown files and folders, OneNote notebooks (through the Microsoft sign-in) and plain text files. Images and attachments are kept. Large imports run in the background and you get an email when they finish.

## Export

To export one note, open the note menu and choose Export as PDF, Markdown or HTML. To export everything, go to Settings > Export and choose Download all notes; you receive a ZIP file with one Markdown file per note plus a folder of attachments. The export link stays valid for seven days.');
insert into public.chunks (document_id, bot_id, position, heading_path, content, token_count) values
  ('e7100000-0000-4000-8000-000000000007', 'c0000000-0000-4000-8000-000000000001', 0, 'Importing and exporting notes > Import', 'Go to Settings > Import. Acme Cloud Notes imports Evernote ENEX files, Markdown files and folders, OneNote notebooks (through the Microsoft sign-in) and plain text files. Images and attachments are kept. Large imports run in the background and you get an email when they finish.', 70),
  ('e7100000-0000-4000-8000-000000000007', 'c0000000-0000-4000-8000-000000000001', 1, 'Importing and exporting notes > Export', 'To export one note, open the note menu and choose Export as PDF, Markdown or HTML. To export everything, go to Settings > Export and choose Download all notes; you receive a ZIP file with one Markdown file per note plus a folder of attachments. The export link stays valid for seven days.', 72);

insert into public.documents (id, data_source_id, bot_id, title, url, language, content_hash, size_bytes, status, content)
values ('e7100000-0000-4000-8000-000000000008', 'e7000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'Account, password and security', 'https://help.acmecloudnotes.com/account-security', 'en',
  encode(extensions.digest('# Account, password and security

## Reset your password

On the sign-in page click Forgot password and enter your email address. We send a reset link that works for one hour. If the email does not arrive within ten minutes, check your spam folder. If you signed up with Google or Apple, reset the password with that provider instead.

## Two-factor authentication

Turn on two-factor authentication in Settings > Security > Two-factor authentication. Scan the QR code with an authenticator app such as Google Authenticator or 1Password and enter the six-digit code. Save the ten recovery codes somewhere safe: each works once if you lose your phone.

## Change your email address

In Settings > Account choose Change email. We send a confirmation link to the new address; the change takes effect when you click it.

## Delete your account

Settings > Account > Delete account removes your account and all notes after a 14-day grace period, during which you can sign in to cancel the deletion.', 'sha256'), 'hex'), 993, 'ready',
  '# Account, password and security

## Reset your password

On the sign-in page click Forgot password and enter your email address. We send a reset link that works for one hour. If the email does not arrive within ten minutes, check your spam folder. If you signed up with Google or Apple, reset the password with that provider instead.

## Two-factor authentication

Turn on two-factor authentication in Settings > Security > Two-factor authentication. Scan the QR code with an authenticator app such as Google Authenticator or 1Password and enter the six-digit code. Save the ten recovery codes somewhere safe: each works once if you lose your phone.

## Change your email address

In Settings > Account choose Change email. We send a confirmation link to the new address; the change takes effect when you click it.

## Delete your account

Settings > Account > Delete account removes your account and all notes after a 14-day grace period, during which you can sign in to cancel the deletion.');
insert into public.chunks (document_id, bot_id, position, heading_path, content, token_count) values
  ('e7100000-0000-4000-8000-000000000008', 'c0000000-0000-4000-8000-000000000001', 0, 'Account, password and security > Reset your password', 'On the sign-in page click Forgot password and enter your email address. We send a reset link that works for one hour. If the email does not arrive within ten minutes, check your spam folder. If you signed up with Google or Apple, reset the password with that provider instead.', 69),
  ('e7100000-0000-4000-8000-000000000008', 'c0000000-0000-4000-8000-000000000001', 1, 'Account, password and security > Two-factor authentication', 'Turn on two-factor authentication in Settings > Security > Two-factor authentication. Scan the QR code with an authenticator app such as Google Authenticator or 1Password and enter the six-digit code. Save the ten recovery codes somewhere safe: each works once if you lose your phone.', 71),
  ('e7100000-0000-4000-8000-000000000008', 'c0000000-0000-4000-8000-000000000001', 2, 'Account, password and security > Change your email address', 'In Settings > Account choose Change email. We send a confirmation link to the new address; the change takes effect when you click it.', 34),
  ('e7100000-0000-4000-8000-000000000008', 'c0000000-0000-4000-8000-000000000001', 3, 'Account, password and security > Delete your account', 'Settings > Account > Delete account removes your account and all notes after a 14-day grace period, during which you can sign in to cancel the deletion.', 38);

insert into public.documents (id, data_source_id, bot_id, title, url, language, content_hash, size_bytes, status, content)
values ('e7100000-0000-4000-8000-000000000009', 'e7000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'Plans, prices and billing', 'https://help.acmecloudnotes.com/plans-and-billing', 'en',
  encode(extensions.digest('# Plans, prices and billing

## Plans

Free: up to 3 devices, 100 MB of uploads per month and notes history for 7 days. Plus: 4 dollars per month (or 40 dollars per year), unlimited devices, 10 GB of uploads per month, public links, text recognition in images and 30 days of history. Team: 8 dollars per user per month, everything in Plus, shared team notebooks, admin controls, single sign-on and one year of history.

## Upgrade, downgrade or cancel

Change your plan in Settings > Billing. Upgrades take effect immediately and we charge the difference for the rest of the period. Downgrades and cancellations take effect at the end of the current billing period; your notes are never deleted when you downgrade.

## Invoices and refunds

Invoices are emailed after each payment and can be downloaded from Settings > Billing > Invoices. We refund annual plans in full within 30 days of payment; contact support with your invoice number. We accept Visa, Mastercard, American Express and PayPal.', 'sha256'), 'hex'), 995, 'ready',
  '# Plans, prices and billing

## Plans

Free: up to 3 devices, 100 MB of uploads per month and notes history for 7 days. Plus: 4 dollars per month (or 40 dollars per year), unlimited devices, 10 GB of uploads per month, public links, text recognition in images and 30 days of history. Team: 8 dollars per user per month, everything in Plus, shared team notebooks, admin controls, single sign-on and one year of history.

## Upgrade, downgrade or cancel

Change your plan in Settings > Billing. Upgrades take effect immediately and we charge the difference for the rest of the period. Downgrades and cancellations take effect at the end of the current billing period; your notes are never deleted when you downgrade.

## Invoices and refunds

Invoices are emailed after each payment and can be downloaded from Settings > Billing > Invoices. We refund annual plans in full within 30 days of payment; contact support with your invoice number. We accept Visa, Mastercard, American Express and PayPal.');
insert into public.chunks (document_id, bot_id, position, heading_path, content, token_count) values
  ('e7100000-0000-4000-8000-000000000009', 'c0000000-0000-4000-8000-000000000001', 0, 'Plans, prices and billing > Plans', 'Free: up to 3 devices, 100 MB of uploads per month and notes history for 7 days. Plus: 4 dollars per month (or 40 dollars per year), unlimited devices, 10 GB of uploads per month, public links, text recognition in images and 30 days of history. Team: 8 dollars per user per month, everything in Plus, shared team notebooks, admin controls, single sign-on and one year of history.', 95),
  ('e7100000-0000-4000-8000-000000000009', 'c0000000-0000-4000-8000-000000000001', 1, 'Plans, prices and billing > Upgrade, downgrade or cancel', 'Change your plan in Settings > Billing. Upgrades take effect immediately and we charge the difference for the rest of the period. Downgrades and cancellations take effect at the end of the current billing period; your notes are never deleted when you downgrade.', 66),
  ('e7100000-0000-4000-8000-000000000009', 'c0000000-0000-4000-8000-000000000001', 2, 'Plans, prices and billing > Invoices and refunds', 'Invoices are emailed after each payment and can be downloaded from Settings > Billing > Invoices. We refund annual plans in full within 30 days of payment; contact support with your invoice number. We accept Visa, Mastercard, American Express and PayPal.', 64);

insert into public.documents (id, data_source_id, bot_id, title, url, language, content_hash, size_bytes, status, content)
values ('e7100000-0000-4000-8000-000000000010', 'e7000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'Using the mobile apps', 'https://help.acmecloudnotes.com/mobile-apps', 'en',
  encode(extensions.digest('# Using the mobile apps

The iOS app needs iOS 16 or later and the Android app needs Android 10 or later.

## Quick capture

Add the Acme widget to your home screen to create a note, a checklist or a photo note with one tap. On iOS you can also share text, links and images to Acme from any app with the Share button.

## Scan documents

Tap + and choose Scan document to photograph paper documents. Acme straightens the pages, saves them as a PDF in the note and makes the text searchable.

## Face ID and fingerprint lock

Turn on App lock in Settings > Security to require Face ID, Touch ID or your fingerprint whenever the app opens.', 'sha256'), 'hex'), 637, 'ready',
  '# Using the mobile apps

The iOS app needs iOS 16 or later and the Android app needs Android 10 or later.

## Quick capture

Add the Acme widget to your home screen to create a note, a checklist or a photo note with one tap. On iOS you can also share text, links and images to Acme from any app with the Share button.

## Scan documents

Tap + and choose Scan document to photograph paper documents. Acme straightens the pages, saves them as a PDF in the note and makes the text searchable.

## Face ID and fingerprint lock

Turn on App lock in Settings > Security to require Face ID, Touch ID or your fingerprint whenever the app opens.');
insert into public.chunks (document_id, bot_id, position, heading_path, content, token_count) values
  ('e7100000-0000-4000-8000-000000000010', 'c0000000-0000-4000-8000-000000000001', 0, 'Using the mobile apps', 'The iOS app needs iOS 16 or later and the Android app needs Android 10 or later.', 20),
  ('e7100000-0000-4000-8000-000000000010', 'c0000000-0000-4000-8000-000000000001', 1, 'Using the mobile apps > Quick capture', 'Add the Acme widget to your home screen to create a note, a checklist or a photo note with one tap. On iOS you can also share text, links and images to Acme from any app with the Share button.', 48),
  ('e7100000-0000-4000-8000-000000000010', 'c0000000-0000-4000-8000-000000000001', 2, 'Using the mobile apps > Scan documents', 'Tap + and choose Scan document to photograph paper documents. Acme straightens the pages, saves them as a PDF in the note and makes the text searchable.', 38),
  ('e7100000-0000-4000-8000-000000000010', 'c0000000-0000-4000-8000-000000000001', 3, 'Using the mobile apps > Face ID and fingerprint lock', 'Turn on App lock in Settings > Security to require Face ID, Touch ID or your fingerprint whenever the app opens.', 28);

insert into public.documents (id, data_source_id, bot_id, title, url, language, content_hash, size_bytes, status, content)
values ('e7100000-0000-4000-8000-000000000011', 'e7000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'Privacy and data protection', 'https://help.acmecloudnotes.com/privacy', 'en',
  encode(extensions.digest('# Privacy and data protection

Your notes are encrypted in transit with TLS 1.3 and at rest with AES-256. Our servers are in the European Union (Frankfurt and Dublin). We never sell your data and never use your notes to train AI models.

## End-to-end encrypted notebooks

On Plus and Team you can mark a notebook as end-to-end encrypted. Its notes are encrypted on your device with a passphrase only you know; we cannot read them, and we cannot recover them if you forget the passphrase. Search still works on your devices.

## Data requests

You can download all your data at any time (Settings > Export). For GDPR requests write to privacy@acmecloudnotes.com; we answer within 30 days.', 'sha256'), 'hex'), 688, 'ready',
  '# Privacy and data protection

Your notes are encrypted in transit with TLS 1.3 and at rest with AES-256. Our servers are in the European Union (Frankfurt and Dublin). We never sell your data and never use your notes to train AI models.

## End-to-end encrypted notebooks

On Plus and Team you can mark a notebook as end-to-end encrypted. Its notes are encrypted on your device with a passphrase only you know; we cannot read them, and we cannot recover them if you forget the passphrase. Search still works on your devices.

## Data requests

You can download all your data at any time (Settings > Export). For GDPR requests write to privacy@acmecloudnotes.com; we answer within 30 days.');
insert into public.chunks (document_id, bot_id, position, heading_path, content, token_count) values
  ('e7100000-0000-4000-8000-000000000011', 'c0000000-0000-4000-8000-000000000001', 0, 'Privacy and data protection', 'Your notes are encrypted in transit with TLS 1.3 and at rest with AES-256. Our servers are in the European Union (Frankfurt and Dublin). We never sell your data and never use your notes to train AI models.', 52),
  ('e7100000-0000-4000-8000-000000000011', 'c0000000-0000-4000-8000-000000000001', 1, 'Privacy and data protection > End-to-end encrypted notebooks', 'On Plus and Team you can mark a notebook as end-to-end encrypted. Its notes are encrypted on your device with a passphrase only you know; we cannot read them, and we cannot recover them if you forget the passphrase. Search still works on your devices.', 63),
  ('e7100000-0000-4000-8000-000000000011', 'c0000000-0000-4000-8000-000000000001', 2, 'Privacy and data protection > Data requests', 'You can download all your data at any time (Settings > Export). For GDPR requests write to privacy@acmecloudnotes.com; we answer within 30 days.', 36);

insert into public.ingestion_jobs (data_source_id, bot_id, status, trigger, progress_done, progress_total, started_at, finished_at, created_by)
values ('e7000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'succeeded', 'create', 11, 11, now() - interval '2 minutes', now() - interval '1 minute',
  'a0000000-0000-4000-8000-000000000001');


-- chats (issue 8: the chat engine) ------------------------------------------------
-- Vera Visitor's conversations with "Acme Help Center", answered by the
-- extractive default, so the owner's conversation view, "my chats", feedback and
-- a shared chat have something to show. Counters and the team's monthly usage
-- are kept by triggers on messages.
insert into public.chats (id, bot_id, user_id, channel, title, shared, created_at, updated_at) values
  ('f9000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000003',
   'web', 'Where are my notes stored?', true, now() - interval '2 days', now() - interval '2 days'),
  ('f9000000-0000-4000-8000-000000000002', 'c0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000003',
   'widget', 'Can I get my data out?', false, now() - interval '1 hour', now() - interval '1 hour');

insert into public.messages (id, chat_id, bot_id, role, content, sources, provider, latency_ms, first_token_ms, prompt_tokens, completion_tokens, created_at)
select m.id, m.chat_id, 'c0000000-0000-4000-8000-000000000001', m.role, m.content,
       case when m.role = 'assistant' then coalesce((
         select jsonb_agg(jsonb_build_object('chunk_id', c.id, 'document_id', c.document_id, 'title', d.title, 'url', d.url,
                                             'excerpt', left(c.content, 300)) order by c.position)
         from public.chunks c join public.documents d on d.id = c.document_id
         where c.bot_id = 'c0000000-0000-4000-8000-000000000001' and c.heading_path = m.heading
       ), '[]'::jsonb) else '[]'::jsonb end,
       case when m.role = 'assistant' then 'extractive' end,
       case when m.role = 'assistant' then 48 end, case when m.role = 'assistant' then 41 end,
       case when m.role = 'assistant' then 0 end, case when m.role = 'assistant' then 40 end,
       m.created_at
from (values
  ('f9100000-0000-4000-8000-000000000001'::uuid, 'f9000000-0000-4000-8000-000000000001'::uuid, 'user',
   'Where are my notes stored?', null, now() - interval '2 days'),
  ('f9100000-0000-4000-8000-000000000002'::uuid, 'f9000000-0000-4000-8000-000000000001'::uuid, 'assistant',
   E'Here is what I found in the knowledge base:\n\n**Privacy and data protection**: Your notes are encrypted in transit with TLS 1.3 and at rest with AES-256. Our servers are in the European Union (Frankfurt and Dublin). [1]',
   'Privacy and data protection', now() - interval '2 days' + interval '1 second'),
  ('f9100000-0000-4000-8000-000000000003'::uuid, 'f9000000-0000-4000-8000-000000000002'::uuid, 'user',
   'Can I get my data out?', null, now() - interval '1 hour'),
  ('f9100000-0000-4000-8000-000000000004'::uuid, 'f9000000-0000-4000-8000-000000000002'::uuid, 'assistant',
   E'Here is what I found in the knowledge base:\n\n**Privacy and data protection > Data requests**: You can download all your data at any time (Settings > Export). [1]',
   'Privacy and data protection > Data requests', now() - interval '1 hour' + interval '1 second')
) as m (id, chat_id, role, content, heading, created_at)
order by m.created_at;

insert into public.message_feedback (message_id, bot_id, user_id, rating, comment) values
  ('f9100000-0000-4000-8000-000000000002', 'c0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000003', 'up', 'Clear answer, thanks!');


-- channels (issue 18) -------------------------------------------------------------
-- "Acme Help Center" is on the web (widget and hosted page), has an HTTP API key
-- for local use only (pk_demo-acme-help-center-local-only00000000000, never
-- deploy a seed), a Slack channel that needs attention and a Telegram channel
-- waiting for its bot token. Secrets stay in channel_credentials.
-- The web channel came with the bot (20261127030000_web_channel) and counts its web turns;
-- the seed names it and gives it a fixed id.
update public.channels set id = 'd1000000-0000-4000-8000-000000000001', name = 'Website widget'
where bot_id = 'c0000000-0000-4000-8000-000000000001' and type = 'web';
insert into public.channels (id, bot_id, type, name, enabled, settings, status, last_error, last_event_at, message_count, created_by) values
  ('d1000000-0000-4000-8000-000000000002', 'c0000000-0000-4000-8000-000000000001', 'api', 'HTTP API', true,
   '{}', 'connected', null, null, 0, 'a0000000-0000-4000-8000-000000000001'),
  ('d1000000-0000-4000-8000-000000000003', 'c0000000-0000-4000-8000-000000000001', 'slack', 'Acme workspace', true,
   '{"team_id": "T0ACME", "team_name": "Acme", "bot_user_id": "U0ACMEBOT"}', 'needs_attention',
   'Slack refused the bot token (invalid_auth). Paste a new token and connect again.', now() - interval '3 days', 0,
   'a0000000-0000-4000-8000-000000000002'),
  ('d1000000-0000-4000-8000-000000000004', 'c0000000-0000-4000-8000-000000000001', 'telegram', 'Telegram', false,
   '{"welcome_message": "Hi! I am the Acme Help Center bot. Ask me anything about Acme Cloud Notes."}', 'not_connected', null, null, 0,
   'a0000000-0000-4000-8000-000000000002');

insert into public.channel_credentials (channel_id, secrets) values
  ('d1000000-0000-4000-8000-000000000003', '{"bot_token": "xoxb-revoked-demo-token", "signing_secret": "demo-signing-secret"}');

insert into public.api_keys (id, bot_id, name, prefix, key_hash, rate_limit_per_minute, created_by) values
  ('d2000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'Local demo key', 'pk_demo-acm',
   encode(extensions.digest('pk_demo-acme-help-center-local-only00000000000', 'sha256'), 'hex'), 60,
   'a0000000-0000-4000-8000-000000000001');

-- tests (issue 20: tests and test cases) ---------------------------------------------
-- "Acme Help Center" has a small suite: cases by hand, from a conversation and a suggestion
-- waiting to be accepted; two finished runs, the second after the help centre was re-synced,
-- with one regression (a case that passed and now fails) and one case fixed.
insert into public.bot_test_settings (bot_id, run_after_sync, run_after_settings, schedule)
values ('c0000000-0000-4000-8000-000000000001', true, false, 'weekly');

insert into public.test_cases (id, bot_id, status, question, language, expected_answer, required_phrases, forbidden_phrases,
                               expected_sources, tags, origin, source_message_id, created_by) values
  ('f4000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'active', 'How do I create an account?', 'en',
   'Go to app.acmecloudnotes.com and choose Sign up, with an email address or a Google or Apple account.', '{Sign up}', '{}',
   '{https://help.acmecloudnotes.com/getting-started}', '{onboarding}', 'manual', null, 'a0000000-0000-4000-8000-000000000001'),
  ('f4000000-0000-4000-8000-000000000002', 'c0000000-0000-4000-8000-000000000001', 'active', 'How many tags can a note have?', 'en',
   'A note can have up to 50 tags.', '{50}', '{unlimited}',
   '{https://help.acmecloudnotes.com/notebooks-and-tags}', '{organizing}', 'manual', null, 'a0000000-0000-4000-8000-000000000001'),
  ('f4000000-0000-4000-8000-000000000003', 'c0000000-0000-4000-8000-000000000001', 'active', 'Where are my notes stored?', 'en',
   'Your notes are encrypted and stored on servers in the European Union (Frankfurt and Dublin).', '{European Union}', '{}',
   '{}', '{privacy}', 'conversation', 'f9100000-0000-4000-8000-000000000002', 'a0000000-0000-4000-8000-000000000001'),
  ('f4000000-0000-4000-8000-000000000004', 'c0000000-0000-4000-8000-000000000001', 'suggested', 'What is pinning and favourites?', 'en',
   '', '{}', '{}', '{https://help.acmecloudnotes.com/notebooks-and-tags}', '{suggested}', 'suggestion', null, null);

insert into public.test_runs (id, bot_id, trigger, status, progress_done, progress_total, passed_count, failed_count,
                              regression_count, regressions, fixed_count, previous_run_id, snapshot, created_by,
                              started_at, finished_at, created_at) values
  ('f4100000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'manual', 'succeeded', 3, 3, 2, 1,
   0, '{}', 0, null,
   '{"instructions":"","provider":"extractive","model":null,"temperature":0.2,"language":"en","knowledge":{"documents":4,"chunks":12}}',
   'a0000000-0000-4000-8000-000000000001', now() - interval '2 days', now() - interval '2 days' + interval '4 seconds', now() - interval '2 days'),
  ('f4100000-0000-4000-8000-000000000002', 'c0000000-0000-4000-8000-000000000001', 'sync', 'succeeded', 3, 3, 2, 1,
   1, '{f4000000-0000-4000-8000-000000000002}', 1, 'f4100000-0000-4000-8000-000000000001',
   '{"instructions":"","provider":"extractive","model":null,"temperature":0.2,"language":"en","knowledge":{"documents":4,"chunks":12}}',
   null, now() - interval '3 hours', now() - interval '3 hours' + interval '3 seconds', now() - interval '3 hours');

insert into public.test_results (run_id, case_id, bot_id, question, answer, sources, scores, passed, latency_ms, created_at)
select r.run_id, r.case_id, 'c0000000-0000-4000-8000-000000000001', c.question, r.answer, r.sources::jsonb,
       r.scores::jsonb, r.passed, 40, now() - r.age
from (values
  ('f4100000-0000-4000-8000-000000000001'::uuid, 'f4000000-0000-4000-8000-000000000001'::uuid, interval '2 days',
   E'Here is what I found in the knowledge base:\n\n**Getting started with Acme Cloud Notes > Create your account**: Go to app.acmecloudnotes.com and choose Sign up. [1]',
   '[{"title":"Getting started with Acme Cloud Notes","url":"https://help.acmecloudnotes.com/getting-started","excerpt":"Go to app.acmecloudnotes.com and choose Sign up."}]',
   '[{"name":"source","applies":true,"passed":true,"score":1,"explanation":"Expected source in the top 5 (position 1).","reasons":[{"code":"source.found","params":{"k":5,"positions":[1]}}]},{"name":"phrases","applies":true,"passed":true,"score":1,"explanation":"All 1 required phrases present.","reasons":[{"code":"phrases.allPresent","params":{"count":1}}]},{"name":"answered","applies":true,"passed":true,"score":1,"explanation":"The bot answered with 1 source.","reasons":[{"code":"answered.yes","params":{"sources":1}}]}]',
   true),
  ('f4100000-0000-4000-8000-000000000001', 'f4000000-0000-4000-8000-000000000002', interval '2 days',
   E'Here is what I found in the knowledge base:\n\n**Organizing notes with notebooks and tags > Tags**: Tags cut across notebooks: a note can have up to 50 tags. [1]',
   '[{"title":"Organizing notes with notebooks and tags","url":"https://help.acmecloudnotes.com/notebooks-and-tags","excerpt":"a note can have up to 50 tags"}]',
   '[{"name":"source","applies":true,"passed":true,"score":1,"explanation":"Expected source in the top 5 (position 1).","reasons":[{"code":"source.found","params":{"k":5,"positions":[1]}}]},{"name":"phrases","applies":true,"passed":true,"score":1,"explanation":"All 1 required phrases present. No forbidden phrase.","reasons":[{"code":"phrases.allPresent","params":{"count":1}},{"code":"phrases.noForbidden","params":{}}]}]',
   true),
  ('f4100000-0000-4000-8000-000000000001', 'f4000000-0000-4000-8000-000000000003', interval '2 days',
   'I could not find anything about that in my knowledge.', '[]',
   '[{"name":"answered","applies":true,"passed":false,"score":0,"explanation":"The bot said it found nothing.","reasons":[{"code":"answered.nothing","params":{}}]}]',
   false),
  ('f4100000-0000-4000-8000-000000000002', 'f4000000-0000-4000-8000-000000000001', interval '3 hours',
   E'Here is what I found in the knowledge base:\n\n**Getting started with Acme Cloud Notes > Create your account**: Go to app.acmecloudnotes.com and choose Sign up. [1]',
   '[{"title":"Getting started with Acme Cloud Notes","url":"https://help.acmecloudnotes.com/getting-started","excerpt":"Go to app.acmecloudnotes.com and choose Sign up."}]',
   '[{"name":"source","applies":true,"passed":true,"score":1,"explanation":"Expected source in the top 5 (position 1).","reasons":[{"code":"source.found","params":{"k":5,"positions":[1]}}]}]',
   true),
  ('f4100000-0000-4000-8000-000000000002', 'f4000000-0000-4000-8000-000000000002', interval '3 hours',
   'I could not find anything about that in my knowledge.', '[]',
   '[{"name":"source","applies":true,"passed":false,"score":0,"explanation":"Not in the top 5 sources: https://help.acmecloudnotes.com/notebooks-and-tags.","reasons":[{"code":"source.missing","params":{"k":5,"missing":["https://help.acmecloudnotes.com/notebooks-and-tags"]}}]},{"name":"phrases","applies":true,"passed":false,"score":0.5,"explanation":"Missing required phrase: 50. No forbidden phrase.","reasons":[{"code":"phrases.missing","params":{"phrases":["50"]}},{"code":"phrases.noForbidden","params":{}}]}]',
   false),
  ('f4100000-0000-4000-8000-000000000002', 'f4000000-0000-4000-8000-000000000003', interval '3 hours',
   E'Here is what I found in the knowledge base:\n\n**Privacy and data protection**: Our servers are in the European Union (Frankfurt and Dublin). [1]',
   '[{"title":"Privacy and data protection","url":"https://help.acmecloudnotes.com/privacy","excerpt":"Our servers are in the European Union"}]',
   '[{"name":"phrases","applies":true,"passed":true,"score":1,"explanation":"All 1 required phrases present.","reasons":[{"code":"phrases.allPresent","params":{"count":1}}]}]',
   true)
) as r (run_id, case_id, age, answer, sources, scores, passed)
join public.test_cases c on c.id = r.case_id;

-- power-ups (issue 19) --------------------------------------------------------------
-- "Acme Help Center" can: offer a lead form ("talk to sales"), a booking link, hand the
-- chat over to a person, and look up an order in Acme's (fictional) shop API. The first three
-- work with the extractive default (matched by their example phrases); the order lookup needs a
-- model provider (it has a parameter), so it is disabled here. One lead and one chat waiting for
-- a person, with a reply from Olivia, show the owner's side.
insert into public.power_ups (id, bot_id, type, name, label, description, enabled, example_phrases, settings, created_by) values
  ('f8000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'lead', 'contact_sales', 'Contact sales',
   'Collect the visitor''s contact details when they want to talk to sales, ask about pricing for teams or want to be contacted.',
   true, array['I want to talk to sales', 'Can someone contact me?', 'pricing for my company', 'I would like a quote'],
   '{"fields": ["name", "email", "company", "message"], "required": ["email"], "intro": "Leave your details and our sales team will get back to you within one business day."}',
   'a0000000-0000-4000-8000-000000000001'),
  ('f8000000-0000-4000-8000-000000000002', 'c0000000-0000-4000-8000-000000000001', 'link', 'book_demo', 'Book a demo',
   'Offer the booking page when the visitor wants a demo or a meeting.',
   true, array['Can I book a demo?', 'schedule a meeting', 'I want to see a demo'],
   '{"link_label": "Book a 30-minute demo", "link_url": "https://cal.example.com/acme/demo"}',
   'a0000000-0000-4000-8000-000000000001'),
  ('f8000000-0000-4000-8000-000000000003', 'c0000000-0000-4000-8000-000000000001', 'handoff', 'talk_to_human', 'Talk to a person',
   'Hand the conversation to the support team when the visitor asks for a human.',
   true, array['I want to talk to a human', 'Can I speak to a person?', 'connect me with support staff'],
   '{"handoff_text": "I have asked our support team to join. Someone from Acme Support will answer here within one business day."}',
   'a0000000-0000-4000-8000-000000000001'),
  ('f8000000-0000-4000-8000-000000000004', 'c0000000-0000-4000-8000-000000000001', 'http', 'lookup_order', 'Looked up your order',
   'Look up the status of an order by its number (e.g. A-1001).',
   false, array['Where is my order?', 'order status'],
   '{"method": "GET", "url": "https://shop.example.com/api/orders/{{order_id}}", "headers": {"Authorization": "Bearer {{secret.API_KEY}}"}, "parameters": {"type": "object", "properties": {"order_id": {"type": "string", "description": "The order number, e.g. A-1001"}}, "required": ["order_id"]}, "response_path": "status", "max_chars": 2000, "timeout_ms": 5000}',
   'a0000000-0000-4000-8000-000000000001');

insert into public.power_up_secrets (power_up_id, name, value) values
  ('f8000000-0000-4000-8000-000000000004', 'API_KEY', 'demo-shop-key-not-real');

insert into public.chats (id, bot_id, user_id, channel, title, needs_human, handoff_requested_at, created_at, updated_at) values
  ('f9000000-0000-4000-8000-000000000003', 'c0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000003',
   'web', 'I want to talk to a human', true, now() - interval '20 minutes', now() - interval '20 minutes', now() - interval '20 minutes');

insert into public.messages (id, chat_id, bot_id, role, content, actions, author_id, provider, created_at) values
  ('f9100000-0000-4000-8000-000000000005', 'f9000000-0000-4000-8000-000000000003', 'c0000000-0000-4000-8000-000000000001',
   'user', 'I want to talk to a human, my workspace is locked.', '[]', null, null, now() - interval '20 minutes'),
  ('f9100000-0000-4000-8000-000000000006', 'f9000000-0000-4000-8000-000000000003', 'c0000000-0000-4000-8000-000000000001',
   'assistant', 'I have asked our support team to join. Someone from Acme Support will answer here within one business day.',
   '[{"type": "handoff", "text": "I have asked our support team to join. Someone from Acme Support will answer here within one business day."}]',
   null, 'extractive', now() - interval '20 minutes' + interval '1 second'),
  ('f9100000-0000-4000-8000-000000000007', 'f9000000-0000-4000-8000-000000000003', 'c0000000-0000-4000-8000-000000000001',
   'human', 'Hi Vera, Olivia here. I have unlocked your workspace; can you try again?', '[]',
   'a0000000-0000-4000-8000-000000000001', null, now() - interval '5 minutes');

insert into public.leads (bot_id, chat_id, power_up_id, fields, created_at) values
  ('c0000000-0000-4000-8000-000000000001', 'f9000000-0000-4000-8000-000000000002', 'f8000000-0000-4000-8000-000000000001',
   '{"name": "Vera Visitor", "email": "visitor@parley.test", "company": "Visitor & Co", "message": "We are 40 people; what does the team plan cost?"}',
   now() - interval '50 minutes');

-- webhooks and tasks (issue 21) ----------------------------------------------------------
-- A switched-off example endpoint (so the demo sends nothing anywhere) and a weekly digest
-- of "Acme Help Center" (Mondays 09:00 Berlin time; no recipients, so no mail is sent).
insert into public.webhook_endpoints (id, bot_id, url, events, enabled, description) values
  ('e2100000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000002', 'https://hooks.example.com/parley',
   array['chat.created', 'message.created', 'feedback.created'], false, 'Example endpoint (switched off)');
insert into public.tasks (id, bot_id, name, type, cron, timezone, settings) values
  ('e2200000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'Weekly digest', 'digest',
   '0 9 * * 1', 'Europe/Berlin', '{"period_hours": 168}');

-- Billing (issue 22): Acme Support is on pro (set where the team is inserted above, before its
-- bots, API channel and keys, which free would refuse), paid monthly through Stripe, with two
-- paid invoices. Every other team is on free (its subscription row is created with the team).
update public.subscriptions set
  status = 'active', billing_interval = 'month', currency = 'usd',
  current_period_start = date_trunc('month', now()), current_period_end = date_trunc('month', now()) + interval '1 month',
  stripe_customer_id = 'cus_seed_acme', stripe_subscription_id = 'sub_seed_acme', stripe_price_id = 'price_pro_usd_month'
where team_id = 'b0000000-0000-4000-8000-000000000001';
insert into public.invoices (team_id, stripe_invoice_id, number, status, currency, amount_due, amount_paid, period_start, period_end, created_at)
values
  ('b0000000-0000-4000-8000-000000000001', 'in_seed_acme_1', 'ACME-0001', 'paid', 'usd', 1900, 1900,
   date_trunc('month', now()) - interval '1 month', date_trunc('month', now()), date_trunc('month', now()) - interval '1 month'),
  ('b0000000-0000-4000-8000-000000000001', 'in_seed_acme_2', 'ACME-0002', 'paid', 'usd', 1900, 1900,
   date_trunc('month', now()), date_trunc('month', now()) + interval '1 month', date_trunc('month', now()));

-- admin dashboard (issue 23) ---------------------------------------------------------
-- A week of answers from two model providers (tokens, latency, one provider error), a thumbs
-- down, and a failed sync with its error text, so /app/admin/dashboard and its providers and
-- data-sources sections show figures (sign in as platform-admin@parley.test).
insert into public.chats (id, bot_id, user_id, channel, title, created_at, updated_at) values
  ('f9000000-0000-4000-8000-000000000023', 'c0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000003',
   'widget', 'Pricing questions', now() - interval '7 days', now() - interval '7 days');

insert into public.messages (chat_id, bot_id, role, content, provider, model, prompt_tokens, completion_tokens, latency_ms, first_token_ms, error, created_at)
select 'f9000000-0000-4000-8000-000000000023', 'c0000000-0000-4000-8000-000000000001', m.role,
       case when m.role = 'user' then 'How much is the team plan?' when m.error is null then 'The team plan is billed per seat.' else '' end,
       m.provider, m.model, m.prompt_tokens, m.completion_tokens, m.latency_ms, m.first_token_ms, m.error,
       now() - make_interval(days => m.days_ago) + make_interval(secs => m.seq)
from (values
  (7, 0, 'user', null, null, null, null, null, null, null),
  (7, 1, 'assistant', 'openai', 'gpt-4o-mini', 420, 60, 900, 300, null),
  (5, 0, 'user', null, null, null, null, null, null, null),
  (5, 1, 'assistant', 'anthropic', 'claude-3-5-haiku-latest', 380, 75, 1400, 520, null),
  (3, 0, 'user', null, null, null, null, null, null, null),
  (3, 1, 'assistant', 'openai', 'gpt-4o-mini', 0, 0, 30000, null, 'provider_timeout'),
  (1, 0, 'user', null, null, null, null, null, null, null),
  (1, 1, 'assistant', 'openai', 'gpt-4o-mini', 450, 90, 1100, 350, null)
) as m (days_ago, seq, role, provider, model, prompt_tokens, completion_tokens, latency_ms, first_token_ms, error)
order by m.days_ago desc, m.seq;

-- The provider's own words for the failed answer: the team reads them, the visitor only the code.
insert into public.message_error_details (message_id, bot_id, detail)
select id, bot_id, 'openai: no answer within 30 s'
from public.messages
where chat_id = 'f9000000-0000-4000-8000-000000000023' and error = 'provider_timeout';

insert into public.message_feedback (message_id, user_id, rating, comment)
select id, 'a0000000-0000-4000-8000-000000000003', 'down', 'That is not what the pricing page says.'
from public.messages
where chat_id = 'f9000000-0000-4000-8000-000000000023' and role = 'assistant' and provider = 'anthropic';

insert into public.ingestion_jobs (data_source_id, bot_id, status, trigger, progress_done, progress_total, errors, started_at, finished_at, created_by)
values ('e7000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'failed', 'schedule', 3, 11,
  '[{"url": "https://help.acmecloudnotes.com/billing", "code": "http_503", "message": "The site answered 503 Service Unavailable", "level": "error"}]',
  now() - interval '2 days', now() - interval '2 days' + interval '40 seconds', null);
