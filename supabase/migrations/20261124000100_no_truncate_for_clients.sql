-- Client roles never empty, reference or trigger-manage a table. Supabase's default
-- privileges give anon and authenticated ALL on new public tables; RLS does not apply to
-- TRUNCATE, so the grant itself is what must go. Earlier migrations revoked it table by table
-- and missed anon on several; this revokes it on every public table and, through the default
-- privileges of the role migrations run as, on every table created after this one.
do $$
declare
  t record;
begin
  for t in select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname = 'public' and c.relkind in ('r', 'p') loop
    execute format('revoke truncate, references, trigger on public.%I from anon, authenticated', t.relname);
  end loop;
end;
$$;

alter default privileges in schema public revoke truncate, references, trigger on tables from anon, authenticated;
