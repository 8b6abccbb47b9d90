// Storage through the unmodified storage-js in supabase-js, against the test stack:
// every route, allowed and refused by the fixture's RLS policies, for an owner,
// another user and anon.
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signJwt } from "../src/keys.ts";
import { anonClient, createUser, serviceClient, sql, stackInfo, userClient } from "./helpers.ts";

const rand = () => Math.random().toString(36).slice(2, 10);
const text = (s: string) => new Blob([s], { type: "text/plain" });

let service: SupabaseClient;
let anon: SupabaseClient;
let owner: SupabaseClient;
let other: SupabaseClient;
let ownerId: string;
let otherId: string;
const priv = `priv-${rand()}`;
const pub = `pub-${rand()}`;
const limited = `lim-${rand()}`;

/** A request whose path goes out byte for byte (fetch would resolve "..", "." and "%2e"). */
function rawRequest(method: string, rawPath: string, headers: Record<string, string>, body?: string): Promise<{ status: number; json: unknown }> {
  const { port } = new URL(stackInfo().apiUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path: `/storage/v1${rawPath}`, headers }, (res) => {
      let data = "";
      res.on("data", (d) => (data += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, json: data ? JSON.parse(data) : null }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

function api(pathname: string) {
  return `${stackInfo().apiUrl}/storage/v1${pathname}`;
}

beforeAll(async () => {
  service = serviceClient();
  anon = anonClient();
  ownerId = await createUser();
  otherId = await createUser();
  owner = await userClient(ownerId);
  other = await userClient(otherId);
  const buckets: [string, { public: boolean; fileSizeLimit?: number; allowedMimeTypes?: string[] }][] = [
    [priv, { public: false }],
    [pub, { public: true }],
    [limited, { public: false, fileSizeLimit: 100, allowedMimeTypes: ["image/*", "text/plain"] }],
  ];
  for (const [id, options] of buckets) {
    const { error } = await service.storage.createBucket(id, options);
    expect(error).toBeNull();
  }
});

afterAll(async () => {
  for (const id of [priv, pub, limited]) {
    await service.storage.emptyBucket(id);
    await service.storage.deleteBucket(id);
  }
});

describe("schema", () => {
  it("has Supabase's helper functions for policies", async () => {
    const rows = await sql(
      "select storage.foldername('u1/photos/cat.png') as folders, storage.filename('u1/photos/cat.png') as file, storage.extension('u1/photos/cat.tar.gz') as ext",
    );
    expect(rows[0]).toEqual({ folders: ["u1", "photos"], file: "cat.png", ext: "gz" });
  });

  it("refuses deletes in SQL, as hosted Supabase does: files are deleted through the Storage API", async () => {
    for (const table of ["storage.objects", "storage.buckets"]) {
      await expect(sql(`delete from ${table} where false`)).rejects.toMatchObject({
        code: "42501",
        message: "Direct deletion from storage tables is not allowed. Use the Storage API instead.",
      });
    }
    // the Storage API's own setting lets a delete through, for its transaction only
    await sql("select set_config('storage.allow_delete_query', 'true', true); delete from storage.objects where false");
    await expect(sql("delete from storage.objects where false")).rejects.toMatchObject({ code: "42501" });
  });

  it("has hosted Supabase's bucket columns and types", async () => {
    const cols = await sql<{ column_name: string; type: string; is_nullable: string }>(
      `select a.attname as column_name, format_type(a.atttypid, a.atttypmod) as type, case when a.attnotnull then 'NO' else 'YES' end as is_nullable
         from pg_attribute a where a.attrelid = 'storage.buckets'::regclass and a.attnum > 0 and not a.attisdropped order by a.attnum`,
    );
    expect(cols.map((c) => `${c.column_name} ${c.type}${c.is_nullable === "NO" ? " not null" : ""}`)).toEqual([
      "id text not null", "name text not null", "owner uuid", "owner_id text", "public boolean", "avif_autodetection boolean",
      "file_size_limit bigint", "allowed_mime_types text[]", "type storage.buckettype not null",
      "created_at timestamp with time zone", "updated_at timestamp with time zone",
    ]);
  });
});

describe("buckets", () => {
  it("service role creates, reads, lists, updates, empties and deletes buckets", async () => {
    const id = `b-${rand()}`;
    expect((await service.storage.createBucket(id, { public: false, fileSizeLimit: "1MB" })).data).toEqual({ name: id });
    const got = await service.storage.getBucket(id);
    expect(got.error).toBeNull();
    expect(got.data).toMatchObject({ id, name: id, public: false, file_size_limit: 1_000_000, allowed_mime_types: null });
    const listed = await service.storage.listBuckets();
    expect(listed.data!.map((b) => b.id)).toContain(id);

    const upd = await service.storage.updateBucket(id, { public: true, allowedMimeTypes: ["text/*"] });
    expect(upd.data).toEqual({ message: "Successfully updated" });
    expect((await service.storage.getBucket(id)).data).toMatchObject({ public: true, allowed_mime_types: ["text/*"] });

    await service.storage.from(id).upload("x.txt", text("x"));
    const notEmpty = await service.storage.deleteBucket(id);
    expect(notEmpty.error).toMatchObject({ status: 409, statusCode: "409", message: "The bucket you tried to delete is not empty" });
    expect((await service.storage.emptyBucket(id)).data).toEqual({ message: "Successfully emptied" });
    expect((await service.storage.deleteBucket(id)).data).toEqual({ message: "Successfully deleted" });
    const gone = await service.storage.getBucket(id);
    expect(gone.error).toMatchObject({ status: 404, statusCode: "404", message: "Bucket not found" });
  });

  it("refuses a duplicate bucket with 409 and an invalid name with 400", async () => {
    const dup = await service.storage.createBucket(priv);
    expect(dup.error).toMatchObject({ status: 409, message: "The resource already exists" });
    const res = await fetch(api("/bucket"), {
      method: "POST",
      headers: { apikey: stackInfo().serviceRoleKey, authorization: `Bearer ${stackInfo().serviceRoleKey}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "../escape" }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ statusCode: "400", error: "Invalid Input", message: "Bucket name invalid" });
  });

  it("lets RLS decide who creates buckets: anon and users are refused unless a policy allows it", async () => {
    const byAnon = await anon.storage.createBucket(`anon-${rand()}`);
    expect(byAnon.error).toMatchObject({ status: 403, statusCode: "403", message: "new row violates row-level security policy" });
    const byUser = await owner.storage.createBucket(`plain-${rand()}`);
    expect(byUser.error).toMatchObject({ status: 403 });

    const mine = `user-made-${rand()}`;
    expect((await owner.storage.createBucket(mine)).error).toBeNull();
    expect((await owner.storage.getBucket(mine)).data).toMatchObject({ id: mine, owner: ownerId, owner_id: ownerId });
    expect((await other.storage.getBucket(mine)).error).toMatchObject({ status: 404 });
    expect((await other.storage.updateBucket(mine, { public: true })).error).toMatchObject({ status: 404 });
    expect((await other.storage.deleteBucket(mine)).error).toMatchObject({ status: 404 });
    expect((await owner.storage.listBuckets()).data!.map((b) => b.id)).toContain(mine);
    expect((await owner.storage.deleteBucket(mine)).error).toBeNull();
  });

  it("rejects a bucket size limit above the global [storage] file_size_limit", async () => {
    const res = await service.storage.createBucket(`big-${rand()}`, { public: false, fileSizeLimit: "60MB" });
    expect(res.error).toMatchObject({ status: 413 });
  });
});

describe("upload and download", () => {
  it("the owner uploads into their folder and reads it back; others and anon cannot", async () => {
    const p = `${ownerId}/hello-${rand()}.txt`;
    const up = await owner.storage.from(priv).upload(p, text("hello world"));
    expect(up.error).toBeNull();
    expect(up.data).toMatchObject({ path: p, fullPath: `${priv}/${p}` });
    expect(up.data!.id).toMatch(/^[0-9a-f-]{36}$/);

    const down = await owner.storage.from(priv).download(p);
    expect(await down.data!.text()).toBe("hello world");
    expect((await owner.storage.from(priv).exists(p)).data).toBe(true);

    const info = await owner.storage.from(priv).info(p);
    expect(info.data).toMatchObject({ name: p, bucketId: priv, size: 11, contentType: "text/plain", cacheControl: "max-age=3600" });

    const ownerToken = await (await import("./helpers.ts")).mintUserToken(ownerId);
    const otherToken = await (await import("./helpers.ts")).mintUserToken(otherId);
    const infoAuth = await fetch(api(`/object/info/authenticated/${priv}/${p}`), { headers: { apikey: stackInfo().anonKey, authorization: `Bearer ${ownerToken}` } });
    expect(await infoAuth.json()).toMatchObject({ name: p, size: 11, content_type: "text/plain" });
    const infoOther = await fetch(api(`/object/info/authenticated/${priv}/${p}`), { headers: { apikey: stackInfo().anonKey, authorization: `Bearer ${otherToken}` } });
    expect(infoOther.status).toBe(404);
    const headOther = await fetch(api(`/object/authenticated/${priv}/${p}`), { method: "HEAD", headers: { apikey: stackInfo().anonKey, authorization: `Bearer ${otherToken}` } });
    expect(headOther.status).toBe(404);
    expect((await other.storage.emptyBucket(priv)).error).toMatchObject({ status: 403, message: "Only the service role may empty a bucket" });
    expect((await owner.storage.emptyBucket(priv)).error).toMatchObject({ status: 403 });
    expect((await owner.storage.from(priv).exists(p)).data).toBe(true);

    const row = await sql("select owner, owner_id, metadata from storage.objects where bucket_id = $1 and name = $2", [priv, p]);
    expect(row[0]).toMatchObject({ owner: ownerId, owner_id: ownerId, metadata: { size: 11, mimetype: "text/plain" } });

    const byOther = await other.storage.from(priv).download(p);
    expect(byOther.error).toMatchObject({ status: 404, statusCode: "404", message: "Object not found" });
    expect((await other.storage.from(priv).exists(p)).data).toBe(false);
    expect((await anon.storage.from(priv).download(p)).error).toMatchObject({ status: 404 });

    const intoOwners = await other.storage.from(priv).upload(`${ownerId}/intruder.txt`, text("x"));
    expect(intoOwners.error).toMatchObject({ status: 403, message: "new row violates row-level security policy" });
    const byAnon = await anon.storage.from(priv).upload(`${ownerId}/anon.txt`, text("x"));
    expect(byAnon.error).toMatchObject({ status: 403 });
    expect(await sql("select 1 from storage.objects where bucket_id = $1 and name like '%/intruder.txt' or name like '%/anon.txt'", [priv])).toEqual([]);
  });

  it("policies on metadata see the upload's real content type, raw or multipart", async () => {
    const png = Buffer.from("89504e470d0a1a0a", "hex");
    expect((await anon.storage.from(priv).upload(`dropbox/${rand()}.png`, png, { contentType: "image/png" })).error).toBeNull();
    expect((await anon.storage.from(priv).upload(`dropbox/${rand()}.png`, new Blob([png], { type: "image/png" }))).error).toBeNull();
    const txt = await anon.storage.from(priv).upload(`dropbox/${rand()}.txt`, text("not an image"));
    expect(txt.error).toMatchObject({ status: 403 });
    const rawTxt = await anon.storage.from(priv).upload(`dropbox/${rand()}.txt`, Buffer.from("x"), { contentType: "text/plain" });
    expect(rawTxt.error).toMatchObject({ status: 403 });
    const rows = await sql<{ mime: string }>("select metadata ->> 'mimetype' as mime from storage.objects where bucket_id = $1 and name like 'dropbox/%'", [priv]);
    expect(rows.map((r) => r.mime)).toEqual(["image/png", "image/png"]);
  });

  it("conflicts with 409 unless upsert, and update replaces an existing object only", async () => {
    const p = `${ownerId}/dup-${rand()}.txt`;
    expect((await owner.storage.from(priv).upload(p, text("one"))).error).toBeNull();
    const again = await owner.storage.from(priv).upload(p, text("two"));
    expect(again.error).toMatchObject({ status: 409, statusCode: "409", message: "The resource already exists" });
    expect(await (await owner.storage.from(priv).download(p)).data!.text()).toBe("one");

    expect((await owner.storage.from(priv).upload(p, text("three"), { upsert: true })).error).toBeNull();
    expect(await (await owner.storage.from(priv).download(p)).data!.text()).toBe("three");

    expect((await owner.storage.from(priv).update(p, text("four"))).error).toBeNull();
    expect(await (await owner.storage.from(priv).download(p)).data!.text()).toBe("four");
    const missing = await owner.storage.from(priv).update(`${ownerId}/missing-${rand()}.txt`, text("x"));
    expect(missing.error).toMatchObject({ status: 404 });
    expect((await other.storage.from(priv).update(p, text("hijack"))).error).toMatchObject({ status: 404 });

    // only the current version's file stays on disk
    const dir = path.join(stackInfo().dataDir, "storage", priv, ...p.split("/"));
    expect(fs.readdirSync(dir)).toHaveLength(1);
  });

  it("lets exactly one of two simultaneous uploads to a new key win; the other conflicts", async () => {
    const p = `${ownerId}/race-${rand()}.txt`;
    const results = await Promise.all([owner.storage.from(priv).upload(p, text("first")), owner.storage.from(priv).upload(p, text("second"))]);
    expect(results.filter((x) => x.error === null)).toHaveLength(1);
    expect(results.filter((x) => x.error !== null)[0]!.error).toMatchObject({ status: 409 });
    const dir = path.join(stackInfo().dataDir, "storage", priv, ...p.split("/"));
    expect(fs.readdirSync(dir)).toHaveLength(1);
  });

  it("round-trips a multi-megabyte file byte for byte", async () => {
    const p = `${ownerId}/big-${rand()}.bin`;
    const bytes = crypto.randomBytes(6 * 1024 * 1024 + 7);
    expect((await owner.storage.from(priv).upload(p, bytes, { contentType: "application/octet-stream" })).error).toBeNull();
    const down = await owner.storage.from(priv).download(p);
    expect(Buffer.from(await down.data!.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await owner.storage.from(priv).info(p)).data).toMatchObject({ size: bytes.length, etag: `"${crypto.createHash("md5").update(bytes).digest("hex")}"` });
  });

  it("takes raw bodies with content type, cache control and user metadata", async () => {
    const p = `${ownerId}/raw-${rand()}.json`;
    const body = Buffer.from(JSON.stringify({ a: 1 }));
    const up = await owner.storage.from(priv).upload(p, body, { contentType: "application/json", cacheControl: "60", metadata: { lang: "fr" } });
    expect(up.error).toBeNull();
    const info = await owner.storage.from(priv).info(p);
    expect(info.data).toMatchObject({ contentType: "application/json", cacheControl: "max-age=60", metadata: { lang: "fr" }, size: body.length });

    const token = (await import("./helpers.ts")).mintUserToken(ownerId);
    const res = await fetch(api(`/object/authenticated/${priv}/${p}`), { headers: { apikey: stackInfo().anonKey, authorization: `Bearer ${await token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("cache-control")).toBe("max-age=60");
    expect(res.headers.get("etag")).toMatch(/^"[0-9a-f]{32}"$/);
    expect(res.headers.get("last-modified")).toBeTruthy();
    expect(res.headers.get("content-length")).toBe(String(body.length));
    expect(Buffer.from(await res.arrayBuffer())).toEqual(body);

    const again = await fetch(api(`/object/authenticated/${priv}/${p}`), {
      headers: { apikey: stackInfo().anonKey, authorization: `Bearer ${await token}`, "if-none-match": res.headers.get("etag")! },
    });
    expect(again.status).toBe(304);
  });

  it("uploads multipart FormData with metadata", async () => {
    const p = `${ownerId}/form-${rand()}.txt`;
    const form = new FormData();
    form.append("cacheControl", "120");
    form.append("metadata", JSON.stringify({ source: "form" }));
    form.append("", new Blob(["from a form"], { type: "text/plain" }), "form.txt");
    expect((await owner.storage.from(priv).upload(p, form)).error).toBeNull();
    expect((await owner.storage.from(priv).info(p)).data).toMatchObject({ metadata: { source: "form" }, cacheControl: "max-age=120", size: 11 });
  });

  it("serves range requests with 206 and refuses unsatisfiable ones with 416", async () => {
    const p = `${ownerId}/range-${rand()}.txt`;
    await owner.storage.from(priv).upload(p, text("0123456789"));
    const headers = { apikey: stackInfo().anonKey, authorization: `Bearer ${await (await import("./helpers.ts")).mintUserToken(ownerId)}` };
    const part = await fetch(api(`/object/${priv}/${p}`), { headers: { ...headers, range: "bytes=2-5" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 2-5/10");
    expect(await part.text()).toBe("2345");
    const tail = await fetch(api(`/object/${priv}/${p}`), { headers: { ...headers, range: "bytes=-3" } });
    expect(await tail.text()).toBe("789");
    const bad = await fetch(api(`/object/${priv}/${p}`), { headers: { ...headers, range: "bytes=50-" } });
    expect(bad.status).toBe(416);
    expect(bad.headers.get("content-range")).toBe("bytes */10");
  });

  it("enforces the bucket's size limit (413) and allowed mime types (415)", async () => {
    const big = await owner.storage.from(limited).upload(`${ownerId}/big.txt`, text("x".repeat(101)));
    expect(big.error).toMatchObject({ status: 413, statusCode: "413", message: "The object exceeded the maximum allowed size" });
    const bigRaw = await owner.storage.from(limited).upload(`${ownerId}/big.bin`, Buffer.alloc(200), { contentType: "image/png" });
    expect(bigRaw.error).toMatchObject({ status: 413 });
    const res = await fetch(api(`/object/${limited}/${ownerId}/big2.png`), {
      method: "POST",
      headers: { apikey: stackInfo().anonKey, authorization: `Bearer ${await (await import("./helpers.ts")).mintUserToken(ownerId)}`, "content-type": "image/png" },
      body: Buffer.alloc(150),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ statusCode: "413", error: "Payload too large" });

    const pdf = await owner.storage.from(limited).upload(`${ownerId}/doc.pdf`, Buffer.from("%PDF"), { contentType: "application/pdf" });
    expect(pdf.error).toMatchObject({ status: 415, statusCode: "415", message: "mime type application/pdf is not supported" });
    expect((await owner.storage.from(limited).upload(`${ownerId}/ok.png`, Buffer.alloc(50), { contentType: "image/png" })).error).toBeNull();
    expect((await owner.storage.from(limited).upload(`${ownerId}/ok.txt`, text("fits"))).error).toBeNull();
    const rows = await sql<{ name: string }>("select name from storage.objects where bucket_id = $1 order by name", [limited]);
    expect(rows.map((r) => r.name)).toEqual([`${ownerId}/ok.png`, `${ownerId}/ok.txt`]);
    const dir = path.join(stackInfo().dataDir, "storage", limited, ownerId);
    expect(fs.readdirSync(dir).sort()).toEqual(["ok.png", "ok.txt"]);
  });
});

describe("limits and health", () => {
  it("answers 413 at once when a declared body is above the global [storage] file_size_limit (50MiB)", async () => {
    const { port } = new URL(stackInfo().apiUrl);
    const result = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: "127.0.0.1", port, method: "POST", path: `/storage/v1/object/${priv}/${ownerId}/huge.bin`,
          headers: { apikey: stackInfo().serviceRoleKey, authorization: `Bearer ${stackInfo().serviceRoleKey}`, "content-type": "application/octet-stream", "content-length": String(60 * 1024 * 1024) },
        },
        (res) => {
          let body = "";
          res.on("data", (d) => (body += d));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      req.write(Buffer.alloc(1024)); // the rest is never sent: the answer must not wait for it
    });
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body)).toMatchObject({ statusCode: "413", error: "Payload too large" });
    expect(await sql("select 1 from storage.objects where name = $1", [`${ownerId}/huge.bin`])).toEqual([]);
  });

  it("a client that goes away mid-upload leaves no temp file and does not block the key", async () => {
    const { port } = new URL(stackInfo().apiUrl);
    const auth = { apikey: stackInfo().serviceRoleKey, authorization: `Bearer ${stackInfo().serviceRoleKey}` };
    for (const kind of ["raw", "multipart"] as const) {
      const key = `${ownerId}/aborted-${kind}-${rand()}.bin`;
      const keyDir = path.join(stackInfo().dataDir, "storage", priv, ...key.split("/"));
      const boundary = "----parley" + rand();
      const req = http.request({
        host: "127.0.0.1", port, method: "POST", path: `/storage/v1/object/${priv}/${key}`,
        headers: {
          ...auth,
          "transfer-encoding": "chunked",
          "content-type": kind === "raw" ? "application/octet-stream" : `multipart/form-data; boundary=${boundary}`,
        },
      });
      req.on("error", () => {});
      if (kind === "multipart") {
        req.write(`--${boundary}\r\ncontent-disposition: form-data; name=""; filename="a.bin"\r\ncontent-type: application/octet-stream\r\n\r\n`);
      }
      req.write(Buffer.alloc(32 * 1024, 1));
      const started = Date.now();
      while (!(fs.existsSync(keyDir) && fs.readdirSync(keyDir).some((f) => f.endsWith(".part")))) {
        if (Date.now() - started > 20_000) throw new Error(`no temp file for the ${kind} upload`);
        await new Promise((r) => setTimeout(r, 50));
      }
      req.destroy();
      const up = await service.storage.from(priv).upload(key, text("after the abort"));
      expect(up.error, kind).toBeNull();
      expect(fs.readdirSync(keyDir).filter((f) => f.endsWith(".part")), kind).toEqual([]);
      expect(await (await service.storage.from(priv).download(key)).data!.text()).toBe("after the abort");
    }
  });

  it("reports storage healthy when its data folder is writable", async () => {
    const res = await fetch(`${stackInfo().apiUrl}/health`);
    expect((await res.json()).services.storage).toBe(true);
  });
});

describe("public buckets", () => {
  it("never serves a stored file as something that runs scripts on the API origin", async () => {
    const cases: [string, string | null][] = [
      ["image/png;x=y, image/svg+xml", "application/octet-stream"],
      ["image/png, application/xhtml+xml", "application/octet-stream"],
      ["text/html", null],
      ["text/plain; charset=utf-8", "text/plain; charset=utf-8"],
    ];
    for (const [declared, served] of cases) {
      const p = `pics/${rand()}.bin`;
      // A raw upload keeps the Content-Type header exactly as sent.
      const up = await fetch(api(`/object/${pub}/${p}`), {
        method: "POST",
        headers: { apikey: stackInfo().serviceRoleKey, authorization: `Bearer ${stackInfo().serviceRoleKey}`, "content-type": declared },
        body: "<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>",
      });
      expect([declared, up.status]).toEqual([declared, 200]);
      await up.body?.cancel();
      const res = await fetch(anon.storage.from(pub).getPublicUrl(p).data.publicUrl);
      await res.body?.cancel();
      const type = res.headers.get("content-type") ?? "";
      if (served) expect([declared, type]).toEqual([declared, served]);
      else expect(type).not.toMatch(/html|svg|xml/i);
      expect(res.headers.get("content-security-policy")).toMatch(/^sandbox;/);
    }
  });

  it("serves public objects without any key, and never objects of private buckets", async () => {
    const p = `pics/${rand()}.txt`;
    expect((await service.storage.from(pub).upload(p, text("public!"))).error).toBeNull();
    const url = anon.storage.from(pub).getPublicUrl(p).data.publicUrl;
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("public!");
    const head = await fetch(url, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe("7");
    const info = await fetch(api(`/object/info/public/${pub}/${p}`));
    expect(await info.json()).toMatchObject({ name: p, bucket_id: pub, size: 7 });

    const q = `${ownerId}/secret-${rand()}.txt`;
    await owner.storage.from(priv).upload(q, text("secret"));
    const privRes = await fetch(api(`/object/public/${priv}/${q}`));
    expect(privRes.status).toBe(404);
    expect(await privRes.json()).toMatchObject({ statusCode: "404", message: "Bucket not found" });
    const missing = await fetch(api(`/object/public/${pub}/nope-${rand()}.txt`));
    expect(missing.status).toBe(404);
    expect((await anon.storage.from(pub).list("pics")).data!.map((o) => o.name)).toContain(p.split("/")[1]);
  });
});

describe("signed URLs", () => {
  it("signs a readable object, refuses others, and expires", async () => {
    const p = `${ownerId}/signed-${rand()}.txt`;
    await owner.storage.from(priv).upload(p, text("signed content"));
    const signed = await owner.storage.from(priv).createSignedUrl(p, 60);
    expect(signed.error).toBeNull();
    const res = await fetch(signed.data!.signedUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get("expires")).toBeTruthy();
    expect(await res.text()).toBe("signed content");

    const dl = await owner.storage.from(priv).createSignedUrl(p, 60, { download: "name.txt" });
    expect((await fetch(dl.data!.signedUrl)).headers.get("content-disposition")).toContain("attachment; filename=name.txt");

    expect((await other.storage.from(priv).createSignedUrl(p, 60)).error).toMatchObject({ status: 404 });

    const expired = await signJwt(stackInfo().jwtSecret, { url: `${priv}/${p}` }, -10);
    const late = await fetch(api(`/object/sign/${priv}/${p}?token=${expired}`));
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({ statusCode: "400", message: "jwt expired" });

    const token = new URL(signed.data!.signedUrl).searchParams.get("token")!;
    const q = `${ownerId}/other-${rand()}.txt`;
    await owner.storage.from(priv).upload(q, text("other"));
    const wrong = await fetch(api(`/object/sign/${priv}/${q}?token=${token}`));
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ message: "The url do not match the signature" });
    const forged = await signJwt("not-the-secret-at-all-not-the-secret", { url: `${priv}/${p}` }, 60);
    expect((await fetch(api(`/object/sign/${priv}/${p}?token=${forged}`))).status).toBe(400);
  });

  it("stops working once a short expiry passes", async () => {
    const p = `${ownerId}/short-${rand()}.txt`;
    await owner.storage.from(priv).upload(p, text("short"));
    const signed = await owner.storage.from(priv).createSignedUrl(p, 1);
    await new Promise((r) => setTimeout(r, 2100));
    const res = await fetch(signed.data!.signedUrl);
    expect(res.status).toBe(400);
  });

  it("signs many paths, with an error for those the caller cannot read", async () => {
    const a = `${ownerId}/many-a-${rand()}.txt`;
    await owner.storage.from(priv).upload(a, text("a"));
    const missing = `${ownerId}/missing.txt`;
    const res = await owner.storage.from(priv).createSignedUrls([a, missing], 60);
    expect(res.error).toBeNull();
    expect(res.data![0]).toMatchObject({ path: a, error: null });
    expect(res.data![1]).toMatchObject({ path: missing, error: "Either the object does not exist or you do not have access to it", signedUrl: null });
    expect(await (await fetch(res.data![0]!.signedUrl!)).text()).toBe("a");
  });

  it("signed uploads: the owner signs, anyone holding the URL uploads that one key", async () => {
    const p = `${ownerId}/upload-${rand()}.txt`;
    const signed = await owner.storage.from(priv).createSignedUploadUrl(p);
    expect(signed.error).toBeNull();
    const up = await anon.storage.from(priv).uploadToSignedUrl(p, signed.data!.token, text("via signed upload"));
    expect(up.error).toBeNull();
    expect(up.data).toMatchObject({ path: p, fullPath: `${priv}/${p}` });
    expect(await (await owner.storage.from(priv).download(p)).data!.text()).toBe("via signed upload");
    const row = await sql("select owner_id from storage.objects where bucket_id = $1 and name = $2", [priv, p]);
    expect(row[0]).toEqual({ owner_id: ownerId });

    const again = await anon.storage.from(priv).uploadToSignedUrl(p, signed.data!.token, text("again"));
    expect(again.error).toMatchObject({ status: 409 });
    const elsewhere = await anon.storage.from(priv).uploadToSignedUrl(`${ownerId}/elsewhere.txt`, signed.data!.token, text("x"));
    expect(elsewhere.error).toMatchObject({ status: 400 });
    expect((await other.storage.from(priv).createSignedUploadUrl(`${ownerId}/nope.txt`)).error).toMatchObject({ status: 403 });
    expect((await owner.storage.from(priv).createSignedUploadUrl(p)).error).toMatchObject({ status: 409 });
    // a download token is not an upload token
    const dl = await owner.storage.from(priv).createSignedUrl(p, 60);
    const dlToken = new URL(dl.data!.signedUrl).searchParams.get("token")!;
    expect((await anon.storage.from(priv).uploadToSignedUrl(p, dlToken, text("x"), { upsert: true })).error).toMatchObject({ status: 400 });
  });
});

describe("list, move, copy, delete", () => {
  it("lists one folder level with folders first, prefix, search, sort, limit and offset", async () => {
    const base = `${ownerId}/docs-${rand()}`;
    for (const name of ["b.txt", "a.txt", "zeta.md", "sub/c.txt", "sub/deeper/d.txt"]) {
      expect((await owner.storage.from(priv).upload(`${base}/${name}`, text(name))).error).toBeNull();
    }
    const all = await owner.storage.from(priv).list(base);
    expect(all.error).toBeNull();
    expect(all.data!.map((o) => o.name)).toEqual(["sub", "a.txt", "b.txt", "zeta.md"]);
    expect(all.data![0]).toMatchObject({ name: "sub", id: null, metadata: null });
    expect(all.data![1]!.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(all.data![1]!.metadata).toMatchObject({ size: 5, mimetype: "text/plain" });

    const desc = await owner.storage.from(priv).list(base, { sortBy: { column: "name", order: "desc" } });
    expect(desc.data!.map((o) => o.name)).toEqual(["sub", "zeta.md", "b.txt", "a.txt"]);
    expect((await owner.storage.from(priv).list(base, { search: "b" })).data!.map((o) => o.name)).toEqual(["b.txt"]);
    expect((await owner.storage.from(priv).list(base, { limit: 2, offset: 1 })).data!.map((o) => o.name)).toEqual(["a.txt", "b.txt"]);
    expect((await owner.storage.from(priv).list(`${base}/sub`)).data!.map((o) => o.name)).toEqual(["deeper", "c.txt"]);
    expect((await other.storage.from(priv).list(base)).data).toEqual([]);
    expect((await anon.storage.from(priv).list(base)).data).toEqual([]);
  });

  it("listV2: flat or by folder, paged by cursor, sorted, and only what RLS lets the caller see", async () => {
    const base = `${ownerId}/v2-${rand()}/`;
    for (const name of ["b.txt", "a.txt", "c.txt", "sub/x.txt", "sub/y.txt", "other/z.txt"]) {
      expect((await owner.storage.from(priv).upload(base + name, text(name))).error).toBeNull();
    }
    const flat = await owner.storage.from(priv).listV2({ prefix: base });
    expect(flat.error).toBeNull();
    expect(flat.data!.objects.map((o) => o.name)).toEqual(["a.txt", "b.txt", "c.txt", "other/z.txt", "sub/x.txt", "sub/y.txt"].map((n) => base + n));
    expect(flat.data!.folders).toEqual([]);
    expect(flat.data!.hasNext).toBe(false);
    expect(flat.data!.objects[0]).toMatchObject({ key: base + "a.txt", metadata: { size: 5 } });

    const tree = await owner.storage.from(priv).listV2({ prefix: base, with_delimiter: true });
    expect(tree.data!.folders.map((f) => f.key)).toEqual([base + "other", base + "sub"]);
    expect(tree.data!.objects.map((o) => o.name)).toEqual(["a.txt", "b.txt", "c.txt"].map((n) => base + n));

    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const res = await owner.storage.from(priv).listV2({ prefix: base, limit: 4, cursor, sortBy: { column: "name", order: "desc" } });
      seen.push(...res.data!.objects.map((o) => o.name));
      if (!res.data!.hasNext) break;
      cursor = res.data!.nextCursor;
    }
    expect(seen).toEqual(["sub/y.txt", "sub/x.txt", "other/z.txt", "c.txt", "b.txt", "a.txt"].map((n) => base + n));

    const byDate: string[] = [];
    cursor = undefined;
    for (let page = 0; page < 10; page++) {
      const res = await owner.storage.from(priv).listV2({ prefix: base, limit: 2, cursor, sortBy: { column: "created_at" } });
      byDate.push(...res.data!.objects.map((o) => o.name));
      if (!res.data!.hasNext) break;
      cursor = res.data!.nextCursor;
    }
    expect(byDate).toEqual(["b.txt", "a.txt", "c.txt", "sub/x.txt", "sub/y.txt", "other/z.txt"].map((n) => base + n));
    expect((await other.storage.from(priv).listV2({ prefix: base })).data!.objects).toEqual([]);
  });

  it("moves within the caller's rights only", async () => {
    const from = `${ownerId}/move-${rand()}.txt`;
    const to = `${ownerId}/moved/${rand()}.txt`;
    await owner.storage.from(priv).upload(from, text("moving"));
    expect((await owner.storage.from(priv).move(from, to)).data).toEqual({ message: "Successfully moved" });
    expect((await owner.storage.from(priv).download(from)).error).toMatchObject({ status: 404 });
    expect(await (await owner.storage.from(priv).download(to)).data!.text()).toBe("moving");

    const intoOther = await owner.storage.from(priv).move(to, `${otherId}/stolen.txt`);
    expect(intoOther.error).toMatchObject({ status: 403 });
    expect(await (await owner.storage.from(priv).download(to)).data!.text()).toBe("moving");
    expect((await other.storage.from(priv).move(to, `${otherId}/taken.txt`)).error).toMatchObject({ status: 404 });

    const across = `${ownerId}/across-${rand()}.txt`;
    expect((await owner.storage.from(priv).move(to, across, { destinationBucket: limited })).error).toBeNull();
    expect(await (await owner.storage.from(limited).download(across)).data!.text()).toBe("moving");
    expect(fs.existsSync(path.join(stackInfo().dataDir, "storage", priv, ...to.split("/")))).toBe(false);
    await owner.storage.from(limited).remove([across]);
  });

  it("copies to a new key; an existing destination conflicts", async () => {
    const src = `${ownerId}/copy-src-${rand()}.txt`;
    const dst = `${ownerId}/copy-dst-${rand()}.txt`;
    await owner.storage.from(priv).upload(src, text("copy me"));
    const copied = await owner.storage.from(priv).copy(src, dst);
    expect(copied.error).toBeNull();
    expect(copied.data).toEqual({ path: `${priv}/${dst}` });
    expect(await (await owner.storage.from(priv).download(dst)).data!.text()).toBe("copy me");
    expect(await (await owner.storage.from(priv).download(src)).data!.text()).toBe("copy me");
    expect((await owner.storage.from(priv).copy(src, dst)).error).toMatchObject({ status: 409, message: "The resource already exists" });
    expect((await other.storage.from(priv).copy(src, `${otherId}/mine.txt`)).error).toMatchObject({ status: 404 });
    expect((await owner.storage.from(priv).copy(src, `${otherId}/gift.txt`)).error).toMatchObject({ status: 403 });
    // removing the source leaves the copy intact (separate file)
    await owner.storage.from(priv).remove([src]);
    expect(await (await owner.storage.from(priv).download(dst)).data!.text()).toBe("copy me");
  });

  it("deletes many: only what the caller may delete, returning those rows", async () => {
    const a = `${ownerId}/del-a-${rand()}.txt`;
    const b = `${ownerId}/del-b-${rand()}.txt`;
    await owner.storage.from(priv).upload(a, text("a"));
    await owner.storage.from(priv).upload(b, text("b"));
    const byOther = await other.storage.from(priv).remove([a, b]);
    expect(byOther.data).toEqual([]);
    const removed = await owner.storage.from(priv).remove([a, b, `${ownerId}/never-existed.txt`]);
    expect(removed.error).toBeNull();
    expect(removed.data!.map((o) => o.name).sort()).toEqual([a, b].sort());
    expect((await owner.storage.from(priv).exists(a)).data).toBe(false);
    expect(fs.existsSync(path.join(stackInfo().dataDir, "storage", priv, ...a.split("/")))).toBe(false);
  });

  it("deletes one object by path", async () => {
    const p = `${ownerId}/single-${rand()}.txt`;
    await owner.storage.from(priv).upload(p, text("single"));
    const token = await (await import("./helpers.ts")).mintUserToken(otherId);
    const refused = await fetch(api(`/object/${priv}/${p}`), { method: "DELETE", headers: { apikey: stackInfo().anonKey, authorization: `Bearer ${token}` } });
    expect(refused.status).toBe(404);
    const res = await fetch(api(`/object/${priv}/${p}`), {
      method: "DELETE",
      headers: { apikey: stackInfo().anonKey, authorization: `Bearer ${await (await import("./helpers.ts")).mintUserToken(ownerId)}` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: "Successfully deleted" });
  });
});

describe("hostile input", () => {
  it("rejects path traversal and unsafe keys without touching the disk outside the bucket", async () => {
    const headers = { apikey: stackInfo().serviceRoleKey, authorization: `Bearer ${stackInfo().serviceRoleKey}`, "content-type": "text/plain" };
    const bad = [
      "../escape.txt",
      "a/../../escape.txt",
      "%2e%2e/escape.txt",
      "a/%2e%2e/%2e%2e/escape.txt",
      "a/.%2Fb.txt",
      "..%2Fescape.txt",
      "a%2F..%2F..%2Fescape.txt",
      "a%5Cb.txt",
      "a%00b.txt",
      "%2Fetc%2Fpasswd",
      "a//b.txt",
      "a/",
      "x".repeat(300),
    ];
    for (const key of bad) {
      const res = await rawRequest("POST", `/object/${priv}/${key}`, headers, "evil");
      expect(res.status, key).toBe(400);
      expect(res.json, key).toMatchObject({ statusCode: "400" });
      const read = await rawRequest("GET", `/object/${priv}/${key}`, headers);
      expect(read.status, key).toBe(400);
    }
    const viaClient = await service.storage.from(priv).upload("../../escape.txt", text("x"));
    // fetch resolves the dots before sending, so this one never reaches a storage route
    expect(viaClient.error?.status).toBeGreaterThanOrEqual(400);
    expect(viaClient.error?.status).toBeLessThan(500);
    for (const bucket of ["..%2F..%2Fetc", ".%2E%2Fx", "a%5Cb", "a%00b"]) {
      const res = await rawRequest("POST", `/object/${bucket}/passwd`, headers, "evil");
      expect(res.status, bucket).toBe(400);
    }
    const root = stackInfo().dataDir;
    const found: string[] = [];
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        if (e.name.includes("escape") || e.name === "passwd") found.push(path.join(d, e.name));
        if (e.isDirectory() && e.name !== "postgres") walk(path.join(d, e.name));
      }
    };
    // Inside the data dir anything so named is an escape; one and two levels up (where a
    // "../" or "../../" would land) only the exact names, since /tmp holds unrelated files.
    walk(root);
    for (const up of [path.dirname(root), path.dirname(path.dirname(root))]) {
      for (const name of ["escape.txt", "passwd"]) if (fs.existsSync(path.join(up, name))) found.push(path.join(up, name));
    }
    expect(found).toEqual([]);
  });

  it("answers malformed JSON, wrong types and unknown routes with 4xx in Supabase's error shape", async () => {
    const headers = { apikey: stackInfo().serviceRoleKey, authorization: `Bearer ${stackInfo().serviceRoleKey}`, "content-type": "application/json" };
    const cases: [string, string, string | undefined][] = [
      ["POST", `/object/list/${priv}`, "{not json"],
      ["POST", `/object/list/${priv}`, JSON.stringify({ prefix: 5 })],
      ["POST", `/object/list/${priv}`, JSON.stringify({ prefix: "", sortBy: { column: "id; drop table x" } })],
      ["POST", `/object/sign/${priv}`, JSON.stringify({ expiresIn: "soon", paths: [] })],
      ["DELETE", `/object/${priv}`, JSON.stringify({ prefixes: "all" })],
      ["POST", "/object/move", JSON.stringify({ bucketId: priv })],
      ["POST", "/bucket", JSON.stringify({ name: "ok-name", file_size_limit: "lots" })],
      ["POST", "/bucket", JSON.stringify({ name: "ok-name", allowed_mime_types: ["not a mime"] })],
      ["GET", "/nothing-here", undefined],
    ];
    for (const [method, p, body] of cases) {
      const res = await fetch(api(p), { method, headers, body });
      expect(res.status, `${method} ${p} ${body}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${method} ${p} ${body}`).toBeLessThan(500);
      expect(await res.json()).toMatchObject({ statusCode: expect.stringMatching(/^4/), message: expect.any(String) });
    }
  });

  it("refuses an expired or forged user token", async () => {
    const expired = await (await import("./helpers.ts")).mintUserToken(ownerId, {}, -10);
    const res = await fetch(api(`/object/list/${priv}`), {
      method: "POST",
      headers: { apikey: stackInfo().anonKey, authorization: `Bearer ${expired}`, "content-type": "application/json" },
      body: JSON.stringify({ prefix: "" }),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ statusCode: "403", error: "Unauthorized", message: "jwt expired" });

    const forged = await signJwt("a-secret-that-is-not-the-stacks-secret", { sub: ownerId, role: "authenticated" }, 60);
    const forgedRes = await fetch(api(`/object/${priv}/${ownerId}/x.txt`), { headers: { apikey: stackInfo().anonKey, authorization: `Bearer ${forged}` } });
    expect(forgedRes.status).toBe(403);
    expect(await forgedRes.json()).toMatchObject({ message: "invalid signature" });

    const none = await fetch(api(`/object/${priv}/${ownerId}/x.txt`));
    expect(none.status).toBe(403);
    expect(await none.json()).toMatchObject({ statusCode: "403", message: "jwt must be provided" });
  });
});
