-- Notion connections: the short-lived hand-over of a Notion OAuth access token from
-- the OAuth round trip to the data source that will use it. The `notion-connect`
-- edge function creates a row when the owner starts "Connect Notion" (state_hash
-- binds Notion's callback to that user), stores the access token after the code
-- exchange, and lists the workspace's pages for the picker; the `ingest` function
-- moves the token into data_source_secrets when the source is created and deletes
-- the row. No client role reads or writes this table: the token never reaches the
-- browser. Rows expire (pending: 15 minutes, connected: 1 hour) and are swept by
-- the functions.
create table public.notion_connections (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  state_hash text not null check (char_length(state_hash) = 64),
  redirect_uri text not null check (char_length(redirect_uri) <= 2000),
  return_path text not null check (char_length(return_path) <= 2048 and return_path like '/%'),
  access_token text check (access_token is null or char_length(access_token) <= 2000),
  workspace_id text check (workspace_id is null or char_length(workspace_id) <= 200),
  workspace_name text check (workspace_name is null or char_length(workspace_name) <= 500),
  created_at timestamptz not null default now(),
  connected_at timestamptz,
  expires_at timestamptz not null default now() + interval '15 minutes'
);
comment on table public.notion_connections is
  'A Notion OAuth connection between the code exchange and the data source that uses it. Service role only (notion-connect and ingest functions); the access token never goes to a browser.';
create index notion_connections_user_id_idx on public.notion_connections (user_id);
create index notion_connections_expires_at_idx on public.notion_connections (expires_at);

alter table public.notion_connections enable row level security;
revoke all on public.notion_connections from anon, authenticated;
