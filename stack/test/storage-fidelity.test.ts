// Storage behaviour that apps built on hosted Supabase rely on, through the unmodified
// storage-js in supabase-js: insert policies that read the stored metadata (size,
// mimetype, user_metadata) from every way of uploading, delete refusals, emptying a
// bucket, list-v2 sorting and folder keys, and the storage.operation helpers.
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, mintUserToken, serviceClient, sql, stackInfo, userClient } from "./helpers.ts";

const rand = () => Math.random().toString(36).slice(2, 10);
const bucket = `fid-${rand()}`;
const policy = (name: string) => `"${bucket} ${name}"`;

let service: SupabaseClient;
let owner: SupabaseClient;
let reader: SupabaseClient;
let ownerId: string;
let readerId: string;

beforeAll(async () => {
  service = serviceClient();
  ownerId = await createUser();
  readerId = await createUser();
  owner = await userClient(ownerId);
  reader = await userClient(readerId);
  expect((await service.storage.createBucket(bucket, { public: false })).error).toBeNull();
  // Policies as a Supabase project writes them, on this test's bucket only:
  // uploads of at most 20 bytes, text only, tagged with user metadata "kind": "note";
  // paths are n/<uid>/... so that the fixture's own "users' folder" policies do not apply;
// the owner's folder is readable by the other user too, but only listed, never downloaded;
  // only the owner deletes.
  await sql(`
    create policy ${policy("small tagged text")} on storage.objects for insert to authenticated
      with check (bucket_id = '${bucket}' and (storage.foldername(name))[1] = 'n' and (storage.foldername(name))[2] = (select auth.uid())::text
        and (metadata ->> 'size')::int <= 20 and metadata ->> 'mimetype' = 'text/plain'
        and user_metadata ->> 'kind' = 'note');
    create policy ${policy("owner reads")} on storage.objects for select to authenticated
      using (bucket_id = '${bucket}' and (storage.foldername(name))[1] = 'n' and (storage.foldername(name))[2] = (select auth.uid())::text);
    create policy ${policy("others only list")} on storage.objects for select to authenticated
      using (bucket_id = '${bucket}' and storage.allow_any_operation(array['object.list', 'storage.object.list_v2', 'storage.object.delete']));
    create policy ${policy("owner deletes")} on storage.objects for delete to authenticated
      using (bucket_id = '${bucket}' and (storage.foldername(name))[1] = 'n' and (storage.foldername(name))[2] = (select auth.uid())::text);
  `);
});

afterAll(async () => {
  await service.storage.emptyBucket(bucket);
  await service.storage.deleteBucket(bucket);
  for (const name of ["small tagged text", "owner reads", "others only list", "owner deletes"]) {
    await sql(`drop policy if exists ${policy(name)} on storage.objects`);
  }
});

const note = (s: string) => new Blob([s], { type: "text/plain" });

describe("insert policies see the stored metadata", () => {
  it("multipart (Blob), raw (Buffer with x-metadata) and signed uploads pass a policy on size, mimetype and user_metadata", async () => {
    const viaForm = `n/${ownerId}/form-${rand()}.txt`;
    const form = await owner.storage.from(bucket).upload(viaForm, note("short note"), { metadata: { kind: "note" } });
    expect(form.error).toBeNull();
    const viaRaw = `n/${ownerId}/raw-${rand()}.txt`;
    const raw = await owner.storage.from(bucket).upload(viaRaw, Buffer.from("raw note"), { contentType: "text/plain", metadata: { kind: "note" } });
    expect(raw.error).toBeNull();
    const rows = await sql<{ name: string; size: number; mime: string; user_metadata: unknown }>(
      "select name, (metadata->>'size')::int as size, metadata->>'mimetype' as mime, user_metadata from storage.objects where bucket_id = $1 order by name",
      [bucket],
    );
    expect(rows).toEqual(expect.arrayContaining([
      { name: viaForm, size: 10, mime: "text/plain", user_metadata: { kind: "note" } },
      { name: viaRaw, size: 8, mime: "text/plain", user_metadata: { kind: "note" } },
    ]));
    const info = await owner.storage.from(bucket).info(viaForm);
    expect(info.data).toMatchObject({ size: 10, contentType: "text/plain", metadata: { kind: "note" } });

    // Signed upload: the signer's right is checked when signing; the upload's own
    // user metadata (x-metadata) is stored.
    const signedPath = `n/${ownerId}/signed-${rand()}.txt`;
    await sql(`create policy ${policy("signing")} on storage.objects for insert to authenticated
      with check (bucket_id = '${bucket}' and name like '%/signed-%' and (storage.foldername(name))[1] = 'n' and (storage.foldername(name))[2] = (select auth.uid())::text)`);
    try {
      const signed = await owner.storage.from(bucket).createSignedUploadUrl(signedPath);
      expect(signed.error).toBeNull();
      const up = await owner.storage.from(bucket).uploadToSignedUrl(signedPath, signed.data!.token, Buffer.from("signed"), {
        contentType: "text/plain", metadata: { kind: "note" },
      } as never);
      expect(up.error).toBeNull();
      const [row] = await sql("select user_metadata, metadata->>'size' as size from storage.objects where bucket_id = $1 and name = $2", [bucket, signedPath]);
      expect(row).toEqual({ user_metadata: { kind: "note" }, size: "6" });
    } finally {
      await sql(`drop policy ${policy("signing")} on storage.objects`);
    }
  });

  it("refuses what the policy refuses, whichever way the body comes, and stores nothing", async () => {
    const long = "x".repeat(21);
    const cases = [
      () => owner.storage.from(bucket).upload(`n/${ownerId}/big-${rand()}.txt`, note(long), { metadata: { kind: "note" } }),
      () => owner.storage.from(bucket).upload(`n/${ownerId}/big-${rand()}.txt`, Buffer.from(long), { contentType: "text/plain", metadata: { kind: "note" } }),
      () => owner.storage.from(bucket).upload(`n/${ownerId}/untagged-${rand()}.txt`, note("short")),
      () => owner.storage.from(bucket).upload(`n/${ownerId}/html-${rand()}.html`, new Blob(["<b>x</b>"], { type: "text/html" }), { metadata: { kind: "note" } }),
    ];
    for (const upload of cases) {
      const res = await upload();
      expect(res.error).toMatchObject({ status: 403, message: "new row violates row-level security policy" });
    }
    expect(await sql("select name from storage.objects where bucket_id = $1 and (name like '%/big-%' or name like '%/untagged-%' or name like '%/html-%')", [bucket])).toEqual([]);
  });

  it("an upload without user metadata has metadata {}", async () => {
    await sql(`create policy ${policy("plain")} on storage.objects for insert to authenticated
      with check (bucket_id = '${bucket}' and name like '%/plain-%' and (storage.foldername(name))[1] = 'n' and (storage.foldername(name))[2] = (select auth.uid())::text)`);
    try {
      const p = `n/${ownerId}/plain-${rand()}.txt`;
      expect((await owner.storage.from(bucket).upload(p, note("plain"))).error).toBeNull();
      expect((await owner.storage.from(bucket).info(p)).data).toMatchObject({ metadata: {} });
      expect(await sql("select user_metadata from storage.objects where bucket_id = $1 and name = $2", [bucket, p])).toEqual([{ user_metadata: {} }]);
    } finally {
      await sql(`drop policy ${policy("plain")} on storage.objects`);
    }
  });
});

describe("refusals as Supabase words them", () => {
  it("deleting an object one may see but not delete is access denied; an unseen one is not found", async () => {
    const p = `n/${ownerId}/keep-${rand()}.txt`;
    expect((await owner.storage.from(bucket).upload(p, note("keep"), { metadata: { kind: "note" } })).error).toBeNull();
    const token = await mintUserToken(readerId);
    const del = (path: string) =>
      fetch(`${stackInfo().apiUrl}/storage/v1/object/${bucket}/${path}`, {
        method: "DELETE",
        headers: { apikey: stackInfo().anonKey, authorization: `Bearer ${token}` },
      });
    const refused = await del(p);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ statusCode: "403", error: "Unauthorized", message: "Access denied" });
    const unseen = await del(`n/${ownerId}/never-${rand()}.txt`);
    expect(unseen.status).toBe(404);
    expect((await owner.storage.from(bucket).exists(p)).data).toBe(true);
  });

  it("only the service role empties a bucket", async () => {
    const p = `n/${ownerId}/stay-${rand()}.txt`;
    expect((await owner.storage.from(bucket).upload(p, note("stay"), { metadata: { kind: "note" } })).error).toBeNull();
    const byOwner = await owner.storage.emptyBucket(bucket);
    expect(byOwner.error).toMatchObject({ status: 403 });
    expect((await owner.storage.from(bucket).exists(p)).data).toBe(true);
  });
});

describe("operations and list-v2", () => {
  it("storage.allow_only_operation / allow_any_operation see the route's operation", async () => {
    const p = `n/${ownerId}/listed-${rand()}.txt`;
    expect((await owner.storage.from(bucket).upload(p, note("listed"), { metadata: { kind: "note" } })).error).toBeNull();
    // The reader may list (list_v2 is allowed by operation) but not download.
    const listed = await reader.storage.from(bucket).listV2({ prefix: `n/${ownerId}/listed-` });
    expect(listed.data!.objects.map((o) => o.key)).toEqual([p]);
    expect((await reader.storage.from(bucket).download(p)).error).toMatchObject({ status: 404 });
    const [row] = await sql<{ only: boolean; any: boolean; none: boolean }>(
      `select set_config('storage.operation', 'storage.object.upload', true) is not null
          and storage.allow_only_operation('object.upload') as only,
              storage.allow_any_operation(array['storage.object.list', 'storage.object.upload']) as any,
              storage.allow_any_operation(array['', null]) as none`,
    );
    expect(row).toEqual({ only: true, any: true, none: false });
  });

  it("list-v2 sorts folders and objects by sortBy and gives folder keys without a trailing slash", async () => {
    const base = `n/${ownerId}/tree-${rand()}/`;
    for (const name of ["b/1.txt", "a.txt", "c.txt", "a/1.txt"]) {
      expect((await owner.storage.from(bucket).upload(base + name, note(name), { metadata: { kind: "note" } })).error).toBeNull();
    }
    const byName = await owner.storage.from(bucket).listV2({ prefix: base, with_delimiter: true, sortBy: { column: "name", order: "desc" } });
    expect(byName.data!.folders.map((f) => f.key)).toEqual([base + "b", base + "a"]);
    expect(byName.data!.objects.map((o) => o.key)).toEqual([base + "c.txt", base + "a.txt"]);
    const byDate = await owner.storage.from(bucket).listV2({ prefix: base, with_delimiter: true, sortBy: { column: "created_at", order: "desc" } });
    const order = [...byDate.data!.folders, ...byDate.data!.objects].map((e) => e.key);
    // newest first, folders dated by their newest object: a (a/1.txt), c.txt, a.txt, b
    expect(byDate.data!.folders.map((f) => f.key)).toEqual([base + "a", base + "b"]);
    expect(byDate.data!.objects.map((o) => o.key)).toEqual([base + "c.txt", base + "a.txt"]);
    expect(order).toHaveLength(4);
  });
});
