-- One round trip per stored document (issue 17, crawl throughput). The ingest function stored
-- a page in three or four PostgREST calls (upsert the document with its hash cleared, delete its
-- old chunks, insert the chunks, record the hash and the HTTP validators); each call costs the
-- function, the gateway, PostgREST and Postgres a few milliseconds of CPU. This function does
-- the same in one call and one transaction, so an interrupted write leaves the document as it
-- was rather than without its hash.
--
-- Service role only (the ingest function); security invoker: the service role writes documents
-- and chunks itself (RLS does not apply to it), so the function adds no privilege.

create function public.ingest_store_document(p_document jsonb, p_chunks jsonb)
returns uuid
language plpgsql
set search_path = ''
as $$
declare
  v_source uuid;
  v_bot uuid;
  v_id uuid;
begin
  if jsonb_typeof(p_document) is distinct from 'object' or jsonb_typeof(p_chunks) is distinct from 'array' then
    raise exception 'Give the document as a JSON object and its chunks as a JSON array' using errcode = '22023';
  end if;
  if exists (select 1 from jsonb_array_elements(p_chunks) e where jsonb_typeof(e) <> 'object') then
    raise exception 'Every chunk must be a JSON object' using errcode = '22023';
  end if;
  v_source := (p_document->>'data_source_id')::uuid;
  v_bot := (p_document->>'bot_id')::uuid;
  if v_source is null or v_bot is null
     or not exists (select 1 from public.data_sources s where s.id = v_source and s.bot_id = v_bot) then
    raise exception 'The document needs a data source of its bot' using errcode = '22023';
  end if;
  if jsonb_typeof(p_document->'links') not in ('array', 'null') then
    raise exception 'links must be a JSON array of addresses' using errcode = '22023';
  end if;

  insert into public.documents as d (
    data_source_id, bot_id, title, url, language, content_hash, size_bytes, status, error, content,
    navigation, metadata, etag, last_modified, links, fetched_at
  ) values (
    v_source, v_bot, coalesce(p_document->>'title', ''), p_document->>'url', p_document->>'language',
    p_document->>'content_hash', coalesce((p_document->>'size_bytes')::integer, 0), 'ready', null,
    p_document->>'content', coalesce((p_document->>'navigation')::boolean, false),
    coalesce(p_document->'metadata', '{}'::jsonb), p_document->>'etag', p_document->>'last_modified',
    case when jsonb_typeof(p_document->'links') = 'array'
      then array(select jsonb_array_elements_text(p_document->'links')) end,
    (p_document->>'fetched_at')::timestamptz
  )
  on conflict (data_source_id, url) do update set
    title = excluded.title, language = excluded.language, content_hash = excluded.content_hash,
    size_bytes = excluded.size_bytes, status = excluded.status, error = excluded.error,
    content = excluded.content, navigation = excluded.navigation, metadata = excluded.metadata,
    etag = excluded.etag, last_modified = excluded.last_modified, links = excluded.links,
    fetched_at = excluded.fetched_at
  returning d.id into v_id;

  delete from public.chunks c where c.document_id = v_id;
  if exists (select 1 from jsonb_array_elements(p_chunks) e where e ? 'embedding') then
    -- the embedding column exists only where pgvector does (hosted Supabase): named in dynamic
    -- SQL so that the function also works where it does not
    execute 'insert into public.chunks (document_id, bot_id, position, heading_path, content, token_count, embedding)
      select $1, $2, c.position, coalesce(c.heading_path, ''''), c.content, coalesce(c.token_count, 0),
        c.embedding::extensions.vector
      from jsonb_to_recordset($3) as c(position integer, heading_path text, content text, token_count integer, embedding text)'
      using v_id, v_bot, p_chunks;
  else
    insert into public.chunks (document_id, bot_id, position, heading_path, content, token_count)
    select v_id, v_bot, c.position, coalesce(c.heading_path, ''), c.content, coalesce(c.token_count, 0)
    from jsonb_to_recordset(p_chunks) as c(position integer, heading_path text, content text, token_count integer);
  end if;
  return v_id;
end;
$$;
comment on function public.ingest_store_document(jsonb, jsonb) is
  'Service role (ingest function): upserts a document of a data source by url (title, text, content hash, HTTP validators, links) and replaces its chunks, in one transaction. Returns the document id.';
revoke execute on function public.ingest_store_document(jsonb, jsonb) from public, anon, authenticated;
grant execute on function public.ingest_store_document(jsonb, jsonb) to service_role;
