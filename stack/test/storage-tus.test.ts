// Resumable (TUS 1.0) uploads at /storage/v1/upload/resumable, with the unmodified
// tus-js-client configured as Supabase's docs configure it (also through a proxy on
// 127.0.0.1 that drops the connection mid-part), and raw protocol requests for what a
// client library hides (a connection cut or left hanging mid-part, offsets, statuses).
import crypto from "node:crypto";
import http from "node:http";
import net from "node:net";
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

interface TusOptions {
  token?: string;
  chunkSize?: number;
  uploadUrl?: string;
  onProgress?: (sent: number) => void;
  stopAfter?: number;
  endpoint?: string;
  retryDelays?: number[];
  /** Each answer: method, status and Upload-Offset. */
  onResponse?: (method: string, status: number, offset: string) => void;
}

function tusUpload(data: Buffer, objectName: string, o: TusOptions = {}) {
  return new Promise<{ url: string | null; error: Error | null }>((resolve) => {
    const options: tus.UploadOptions = {
      endpoint: o.endpoint ?? endpoint(),
      retryDelays: o.retryDelays ?? [],
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
      onAfterResponse: (req, res) => o.onResponse?.(req.getMethod(), res.getStatus(), res.getHeader("Upload-Offset") ?? ""),
      onSuccess: () => resolve({ url: upload.url, error: null }),
      onError: (error) => resolve({ url: upload.url, error }),
    };
    const upload = new tus.Upload(data, options);
    upload.start();
  });
}

/**
 * A TCP proxy on 127.0.0.1 in front of the stack that resets both sides of the first
 * connection once `cutAfter` bytes went from the client through it (once only), and counts
 * every byte the client sent.
 */
async function droppingProxy(cutAfter: number) {
  const target = new URL(stackInfo().apiUrl);
  const state = { cuts: 0, sent: 0 };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
    }
    let through = 0;
    let cut = false;
    client.on("data", (d: Buffer) => {
      if (cut) return; // what the client sends while its connection dies never arrives
      if (state.cuts === 0 && through + d.length > cutAfter) {
        cut = true;
        const part = d.subarray(0, cutAfter - through);
        state.cuts++;
        state.sent += part.length;
        // The server reads what arrived before the connection goes (a reset discards unread data).
        upstream.write(part, () => setTimeout(() => {
          upstream.resetAndDestroy();
          client.resetAndDestroy();
        }, 300));
        return;
      }
      through += d.length;
      state.sent += d.length;
      upstream.write(d);
    });
    upstream.on("data", (d: Buffer) => client.write(d));
    upstream.on("end", () => client.end());
    client.on("end", () => upstream.end());
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    state,
    endpoint: `http://127.0.0.1:${port}/storage/v1/upload/resumable`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    }),
  };
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
    // Finished: HEAD answers the full length (a client whose last answer was lost resumes into
    // success), and the upload can no longer be terminated.
    const done = await raw("HEAD", id, { ...headersFor(ownerToken), "tus-resumable": "1.0.0" });
    expect([done.status, done.headers["upload-offset"], done.headers["upload-length"]]).toEqual([200, String(data.length), String(data.length)]);
    expect((await raw("DELETE", id, { ...headersFor(ownerToken), "tus-resumable": "1.0.0" })).status).toBe(400);
    const again = await tusUpload(data, name, { chunkSize: 100 * 1024, uploadUrl: first.url! });
    expect(again.error).toBeNull();
    expect((await sql("select count(*)::int as n from storage.objects where bucket_id = $1 and name = $2", [bucket, name]))[0]).toEqual({ n: 1 });
  });

  it("tus-js-client keeps going when the connection drops mid-part: it asks HEAD and sends only the rest", async () => {
    const data = crypto.randomBytes(1024 * 1024);
    const chunkSize = 256 * 1024;
    const name = `${ownerId}/dropped-mid-part-${rand()}.pdf`;
    const proxy = await droppingProxy(600 * 1024);
    try {
      const answers: string[] = [];
      const res = await tusUpload(data, name, {
        chunkSize, endpoint: proxy.endpoint, retryDelays: [0, 200, 500],
        onResponse: (method, status, offset) => answers.push(`${method} ${status} ${offset}`),
      });
      expect(res.error).toBeNull();
      expect(proxy.state.cuts).toBe(1);
      // After the drop the client asked where to go on: the part's first bytes were kept.
      const head = answers.find((a) => a.startsWith("HEAD "));
      expect(head).toMatch(/^HEAD 200 \d+$/);
      const resumedAt = Number(head!.split(" ")[2]);
      expect(resumedAt % chunkSize).toBeGreaterThan(0);
      expect(answers[answers.length - 1]).toBe(`PATCH 204 ${data.length}`);
      // Resumed, not restarted: at most the cut chunk went twice (a restart sends 600 KB + 1 MB).
      expect(proxy.state.sent).toBeGreaterThan(data.length);
      expect(proxy.state.sent).toBeLessThan(data.length + chunkSize + 16 * 1024);
    } finally {
      await proxy.close();
    }
    const down = await owner.storage.from(bucket).download(name);
    expect(Buffer.from(await down.data!.arrayBuffer()).equals(data)).toBe(true);
  });

  it("a part whose connection hangs is stopped by the next request for the upload, keeping what arrived", async () => {
    const data = crypto.randomBytes(400 * 1024);
    const name = `${ownerId}/hanging-${rand()}.pdf`;
    const first = await tusUpload(data, name, { chunkSize: 100 * 1024, stopAfter: 100 * 1024 });
    const id = new URL(first.url!).pathname;
    const tusHeaders = { ...headersFor(ownerToken), "tus-resumable": "1.0.0" };
    const offset = Number((await raw("HEAD", id, tusHeaders)).headers["upload-offset"]);
    // A PATCH that sends 60 KB of its declared rest and then neither sends nor closes.
    const url = new URL(id, stackInfo().apiUrl);
    const hanging = http.request({
      host: url.hostname, port: url.port, path: url.pathname, method: "PATCH",
      headers: { ...tusHeaders, "content-type": "application/offset+octet-stream", "upload-offset": String(offset), "content-length": String(data.length - offset) },
    });
    const closed = new Promise<void>((resolve) => {
      hanging.on("error", () => resolve());
      hanging.on("close", () => resolve());
    });
    hanging.write(data.subarray(offset, offset + 60 * 1024));
    await new Promise((r) => setTimeout(r, 300));
    const head = await raw("HEAD", id, tusHeaders);
    expect(head.status).toBe(200);
    const now = Number(head.headers["upload-offset"]);
    expect(now).toBeGreaterThan(offset);
    expect(now).toBeLessThanOrEqual(offset + 60 * 1024);
    await closed; // the server let go of the hanging request
    const rest = await tusUpload(data, name, { chunkSize: 100 * 1024, uploadUrl: first.url! });
    expect(rest.error).toBeNull();
    const down = await owner.storage.from(bucket).download(name);
    expect(Buffer.from(await down.data!.arrayBuffer()).equals(data)).toBe(true);
  });

  it("answers with @tus/server's statuses and headers", async () => {
    const meta = `bucketName ${Buffer.from(bucket).toString("base64")},objectName ${Buffer.from(`${ownerId}/statuses-${rand()}.pdf`).toString("base64")}`;
    const tusHeaders = { ...headersFor(ownerToken), "tus-resumable": "1.0.0" };
    const deferred = await raw("POST", "/storage/v1/upload/resumable", { ...tusHeaders, "upload-defer-length": "1", "upload-metadata": meta });
    expect(deferred.status).toBe(501);
    const created = await raw("POST", "/storage/v1/upload/resumable", { ...tusHeaders, "upload-length": "10", "upload-metadata": meta });
    expect(created.status).toBe(201);
    expect(created.headers["tus-resumable"]).toBe("1.0.0");
    expect(created.headers["upload-expires"]).toBeTruthy();
    const id = created.headers.location!;
    expect(id).toMatch(/^\/storage\/v1\/upload\/resumable\/[A-Za-z0-9_-]+$/);
    expect((await raw("HEAD", id, headersFor(ownerToken))).status).toBe(412);
    const head = await raw("HEAD", id, tusHeaders);
    expect([head.status, head.headers["upload-offset"], head.headers["upload-length"], head.headers["upload-metadata"], head.headers["cache-control"]]).toEqual([200, "0", "10", meta, "no-store"]);
    const noType = await raw("PATCH", id, { ...tusHeaders, "upload-offset": "0" }, Buffer.from("0123456789"));
    expect(noType.status).toBe(403);
    const noOffset = await raw("PATCH", id, { ...tusHeaders, "content-type": "application/offset+octet-stream" }, Buffer.from("0123456789"));
    expect(noOffset.status).toBe(403);
    const tooMuch = await raw("PATCH", id, { ...tusHeaders, "content-type": "application/offset+octet-stream", "upload-offset": "0" }, Buffer.from("0123456789ab"));
    expect(tooMuch.status).toBe(413);
    const offsetNow = String((await raw("HEAD", id, tusHeaders)).headers["upload-offset"]);
    const last = await raw("PATCH", id, { ...tusHeaders, "content-type": "application/offset+octet-stream", "upload-offset": offsetNow }, Buffer.from("0123456789").subarray(Number(offsetNow)));
    expect([last.status, last.headers["upload-offset"], last.headers["tus-complete"]]).toEqual([204, "10", "1"]);
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
