// Resumable (TUS 1.0) uploads at /storage/v1/upload/resumable, with the unmodified
// tus-js-client configured as Supabase's docs configure it, and raw protocol requests
// for what a client library hides (a connection dropped mid-part, offsets, termination).
import crypto from "node:crypto";
import http from "node:http";
import type { SupabaseClient } from "@supabase/supabase-js";
import * as tus from "tus-js-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, mintUserToken, serviceClient, sql, stackInfo, userClient } from "./helpers.ts";

const rand = () => Math.random().toString(36).slice(2, 10);
const bucket = `tus-${rand()}`;
let service: SupabaseClient;
let owner: SupabaseClient;
let ownerId: string;
let ownerToken: string;
let otherToken: string;

beforeAll(async () => {
  service = serviceClient();
  ownerId = await createUser();
  const otherId = await createUser();
  owner = await userClient(ownerId);
  ownerToken = await mintUserToken(ownerId);
  otherToken = await mintUserToken(otherId);
  expect((await service.storage.createBucket(bucket, { public: false, fileSizeLimit: 2 * 1024 * 1024 })).error).toBeNull();
});

afterAll(async () => {
  await service.storage.emptyBucket(bucket);
  await service.storage.deleteBucket(bucket);
});

const endpoint = () => `${stackInfo().apiUrl}/storage/v1/upload/resumable`;
const headersFor = (token: string, upsert = false) => ({ authorization: `Bearer ${token}`, apikey: stackInfo().anonKey, "x-upsert": String(upsert) });

function tusUpload(data: Buffer, objectName: string, o: { token?: string; chunkSize?: number; uploadUrl?: string; onProgress?: (sent: number) => void; stopAfter?: number } = {}) {
  return new Promise<{ url: string | null; error: Error | null }>((resolve) => {
    const options: tus.UploadOptions = {
      endpoint: endpoint(),
      retryDelays: [],
      headers: headersFor(o.token ?? ownerToken),
      uploadDataDuringCreation: true,
      removeFingerprintOnSuccess: true,
      metadata: { bucketName: bucket, objectName, contentType: "application/pdf", cacheControl: "3600", metadata: JSON.stringify({ source: "tus" }) },
      chunkSize: o.chunkSize ?? 256 * 1024,
      uploadUrl: o.uploadUrl,
      onProgress: (sent) => {
        o.onProgress?.(sent);
        if (o.stopAfter !== undefined && sent >= o.stopAfter) {
          void upload.abort().then(() => resolve({ url: upload.url, error: null }));
        }
      },
      onSuccess: () => resolve({ url: upload.url, error: null }),
      onError: (error) => resolve({ url: upload.url, error }),
    };
    const upload = new tus.Upload(data, options);
    upload.start();
  });
}

function raw(method: string, pathname: string, headers: Record<string, string>, body?: Buffer, dropAfter?: number) {
  const url = new URL(pathname, stackInfo().apiUrl);
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on("error", (e) => (dropAfter !== undefined ? resolve({ status: 0, headers: {} }) : reject(e)));
    if (body && dropAfter !== undefined) {
      req.write(body.subarray(0, dropAfter), () => setTimeout(() => req.destroy(), 200));
    } else {
      req.end(body);
    }
  });
}

describe("resumable uploads (TUS 1.0)", () => {
  it("tus-js-client uploads in parts with progress; the object has its type, size, cache and user metadata", async () => {
    const data = crypto.randomBytes(1024 * 1024 + 123);
    const name = `${ownerId}/big-${rand()}.pdf`;
    const progress: number[] = [];
    const res = await tusUpload(data, name, { onProgress: (n) => progress.push(n) });
    expect(res.error).toBeNull();
    expect(progress.length).toBeGreaterThan(3);
    expect(progress[progress.length - 1]).toBe(data.length);
    const down = await owner.storage.from(bucket).download(name);
    expect(Buffer.from(await down.data!.arrayBuffer()).equals(data)).toBe(true);
    const info = await owner.storage.from(bucket).info(name);
    expect(info.data).toMatchObject({ size: data.length, contentType: "application/pdf", cacheControl: "max-age=3600", metadata: { source: "tus" } });
    const [row] = await sql("select owner_id, metadata->>'eTag' as etag from storage.objects where bucket_id = $1 and name = $2", [bucket, name]);
    expect(row).toEqual({ owner_id: ownerId, etag: `"${crypto.createHash("md5").update(data).digest("hex")}"` });
  });

  it("resumes after the connection drops: HEAD tells the offset, the next client finishes from there", async () => {
    const data = crypto.randomBytes(700 * 1024);
    const name = `${ownerId}/resumed-${rand()}.pdf`;
    const first = await tusUpload(data, name, { chunkSize: 100 * 1024, stopAfter: 200 * 1024 });
    expect(first.error).toBeNull();
    expect(first.url).toBeTruthy();
    const id = new URL(first.url!).pathname;
    const head = await raw("HEAD", id, { ...headersFor(ownerToken), "tus-resumable": "1.0.0" });
    expect(head.status).toBe(200);
    const offset = Number(head.headers["upload-offset"]);
    expect(offset).toBeGreaterThanOrEqual(200 * 1024);
    expect(offset).toBeLessThan(data.length);
    expect(head.headers["upload-length"]).toBe(String(data.length));
    expect((await owner.storage.from(bucket).exists(name)).data).toBe(false);

    // A part cut off mid-way keeps what arrived.
    const cut = await raw("PATCH", id, {
      ...headersFor(ownerToken), "tus-resumable": "1.0.0", "content-type": "application/offset+octet-stream",
      "upload-offset": String(offset), "content-length": String(data.length - offset),
    }, data.subarray(offset), 50 * 1024);
    expect(cut.status).toBe(0);
    let after = offset;
    for (let i = 0; i < 50 && after === offset; i++) {
      await new Promise((r) => setTimeout(r, 50));
      after = Number((await raw("HEAD", id, { ...headersFor(ownerToken), "tus-resumable": "1.0.0" })).headers["upload-offset"]);
    }
    expect(after).toBeGreaterThan(offset);
    // A wrong offset is a conflict; someone else's upload is not found.
    const wrong = await raw("PATCH", id, { ...headersFor(ownerToken), "tus-resumable": "1.0.0", "content-type": "application/offset+octet-stream", "upload-offset": "0" }, Buffer.from("x"));
    expect(wrong.status).toBe(409);
    expect((await raw("HEAD", id, { ...headersFor(otherToken), "tus-resumable": "1.0.0" })).status).toBe(404);

    const second = await tusUpload(data, name, { chunkSize: 100 * 1024, uploadUrl: first.url! });
    expect(second.error).toBeNull();
    const down = await owner.storage.from(bucket).download(name);
    expect(Buffer.from(await down.data!.arrayBuffer()).equals(data)).toBe(true);
    expect((await raw("HEAD", id, { ...headersFor(ownerToken), "tus-resumable": "1.0.0" })).status).toBe(404);
  });

  it("refuses at creation what the policies, the bucket or the protocol refuse", async () => {
    const intruder = await tusUpload(Buffer.from("x"), `${ownerId}/intruder-${rand()}.pdf`, { token: otherToken });
    expect(String(intruder.error)).toMatch(/response code: 403/);
    const big = await tusUpload(crypto.randomBytes(10), `${ownerId}/big-${rand()}.pdf`);
    expect(big.error).toBeNull();
    const tooLarge = await raw("POST", "/storage/v1/upload/resumable", {
      ...headersFor(ownerToken), "tus-resumable": "1.0.0", "upload-length": String(3 * 1024 * 1024),
      "upload-metadata": `bucketName ${Buffer.from(bucket).toString("base64")},objectName ${Buffer.from(`${ownerId}/x.pdf`).toString("base64")}`,
    });
    expect(tooLarge.status).toBe(413);
    const noVersion = await raw("POST", "/storage/v1/upload/resumable", { ...headersFor(ownerToken), "upload-length": "1" });
    expect(noVersion.status).toBe(412);
    const byAnon = await raw("POST", "/storage/v1/upload/resumable", {
      apikey: stackInfo().anonKey, "tus-resumable": "1.0.0", "upload-length": "1",
      "upload-metadata": `bucketName ${Buffer.from(bucket).toString("base64")},objectName ${Buffer.from(`${ownerId}/anon.pdf`).toString("base64")}`,
    });
    expect(byAnon.status).toBe(403);
    const malformed = await raw("POST", "/storage/v1/upload/resumable", { ...headersFor(ownerToken), "tus-resumable": "1.0.0", "upload-length": "1", "upload-metadata": "bucketName !!!" });
    expect(malformed.status).toBe(400);
    const existing = await tusUpload(Buffer.from("again"), (await sql<{ name: string }>("select name from storage.objects where bucket_id = $1 limit 1", [bucket]))[0]!.name);
    expect(String(existing.error)).toMatch(/response code: 409/);
  });

  it("terminates an unfinished upload", async () => {
    const data = crypto.randomBytes(300 * 1024);
    const first = await tusUpload(data, `${ownerId}/dropped-${rand()}.pdf`, { chunkSize: 100 * 1024, stopAfter: 100 * 1024 });
    const id = new URL(first.url!).pathname;
    expect((await raw("DELETE", id, { ...headersFor(ownerToken), "tus-resumable": "1.0.0" })).status).toBe(204);
    expect((await raw("HEAD", id, { ...headersFor(ownerToken), "tus-resumable": "1.0.0" })).status).toBe(404);
  });
});
