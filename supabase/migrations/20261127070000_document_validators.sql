-- What a web page's server said about the version we read, so a re-sync can ask
-- "has it changed?" instead of downloading every page again (issue 17).
--
--   * etag, last_modified: the page's ETag and Last-Modified response headers, sent back as
--     If-None-Match and If-Modified-Since; a 304 Not Modified answer keeps the document as it is.
--   * links: the page's links on the same site, so a crawl that gets 304 (and no body) still
--     follows them.
-- All nullable: other source types, and servers that send no validators, leave them empty.
-- Only the ingest function (service role) writes documents; team members read them as before.

-- columns -----------------------------------------------------------------------
alter table public.documents
  add column etag text,
  add column last_modified text,
  add column links text[];

comment on column public.documents.etag is 'The ETag header of the page as last read (web sources), sent back as If-None-Match on re-sync.';
comment on column public.documents.last_modified is 'The Last-Modified header of the page as last read (web sources), sent back as If-Modified-Since on re-sync.';
comment on column public.documents.links is 'Same-site links of the page as last read (web sources), followed when the page answers 304 Not Modified.';
