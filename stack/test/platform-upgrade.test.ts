// A database made before the stand-in followed hosted Supabase (plain realtime.messages,
// buckets.type as text, pg_trgm pre-installed) is brought in line at the next start
// without losing what migrations put there: the policies on realtime.messages, the buckets.
import { describe, expect, it } from "vitest";
import { withThrowawayServer } from "../src/db-tools.ts";
import { applyPlatform, withClient } from "../src/migrations.ts";
import { DB_PASSWORD } from "../src/stack.ts";

describe("platform objects of an older database", () => {
  it("become hosted's at the next start: realtime.messages partitioned with its policies kept, buckets.type the enum", async () => {
    await withThrowawayServer(async (server) => {
      await applyPlatform(server.url, { authenticatorPassword: DB_PASSWORD });
      await withClient(server.url, async (c) => {
        // what an older stack left behind
        await c.query(`
          drop publication parley_realtime_messages;
          drop table realtime.messages;
          create table realtime.messages (
            topic text not null, extension text not null, payload jsonb, event text, private boolean default false,
            updated_at timestamp not null default now(), inserted_at timestamp not null default now(),
            id uuid not null default gen_random_uuid(), primary key (id, inserted_at));
          alter table realtime.messages enable row level security;
          create policy "Readers of allowed topics" on realtime.messages for select to authenticated
            using ((select realtime.topic()) like 'allowed:%' and extension = 'broadcast');
          create policy "Writers of allowed topics" on realtime.messages as restrictive for insert to authenticated, anon
            with check (topic like 'allowed:%');
          insert into realtime.messages (topic, extension) values ('old', 'broadcast');
          alter table storage.buckets alter column type drop not null, alter column type drop default;
          alter table storage.buckets alter column type type text;
          insert into storage.buckets (id, name, type) values ('kept', 'kept', null);
          create extension pg_trgm with schema extensions;
        `);
      });
      await applyPlatform(server.url, { authenticatorPassword: DB_PASSWORD });
      await withClient(server.url, async (c) => {
        expect((await c.query("select relkind from pg_class where oid = 'realtime.messages'::regclass")).rows[0].relkind).toBe("p");
        const policies = (await c.query(
          "select policyname, permissive, roles::text[] as roles, cmd, qual, with_check from pg_policies where schemaname = 'realtime' order by policyname",
        )).rows;
        expect(policies).toEqual([
          { policyname: "Readers of allowed topics", permissive: "PERMISSIVE", roles: ["authenticated"], cmd: "SELECT",
            qual: expect.stringContaining("'allowed:%'"), with_check: null },
          { policyname: "Writers of allowed topics", permissive: "RESTRICTIVE", roles: ["anon", "authenticated"], cmd: "INSERT",
            qual: null, with_check: expect.stringContaining("'allowed:%'") },
        ]);
        const pub = (await c.query("select pubviaroot from pg_publication where pubname = 'parley_realtime_messages'")).rows[0];
        expect(pub).toEqual({ pubviaroot: true });
        expect((await c.query("select type::text from storage.buckets where id = 'kept'")).rows[0].type).toBe("STANDARD");
        // broadcasts from SQL land in today's partition again
        await c.query("select realtime.send('{}', 'e', 'after-upgrade', false)");
        expect((await c.query("select count(*)::int as n from realtime.messages where topic = 'after-upgrade'")).rows[0].n).toBe(1);
      });
    });
  });
});
