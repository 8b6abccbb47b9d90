// Uploads to Storage with progress. Up to the resumable threshold (RESUMABLE_UPLOAD_THRESHOLD_BYTES,
// /config.js `resumableUploadThreshold`) one request, as supabase-js sends it (POST
// /storage/v1/object/<bucket>/<path>) but through XMLHttpRequest, whose upload reports
// progress where fetch() does not. Above it, Supabase's resumable uploads (TUS) with
// tus-js-client, configured as Supabase's docs configure it: 6 MB parts, and after a dropped
// connection the client asks Storage how much arrived and sends only the rest. tus-js-client
// is loaded only when such a file is uploaded.
import { getConfig } from "../../lib/config";
import type { Json } from "../../lib/database";
import { AppError } from "../../lib/errors";
import { jsonObject, jsonString } from "../../lib/json";
import { loadSupabase } from "../../lib/supabase-ready";

export const SOURCES_BUCKET = "data-sources";
/** Supabase's part size for resumable uploads (its S3 backend takes 6 MB parts). */
export const RESUMABLE_CHUNK_BYTES = 6 * 1024 * 1024;
/** Waits before each new attempt after a failed request (Supabase's docs use these). */
export const RESUMABLE_RETRY_DELAYS = [0, 3000, 5000, 10000, 20000];

export interface UploadOptions {
  signal?: AbortSignal;
  /** Called when a request failed and the upload will go on after a wait (connection lost). */
  onRetry?: () => void;
}

const cancelled = () => new AppError({ status: 0, code: "aborted", message: "The upload was cancelled." });

/** Storage's error body ({ statusCode, error, message }) as an AppError. */
function storageError(status: number, body: string, statusText: string): AppError {
  let parsed: Json | undefined;
  try {
    parsed = JSON.parse(body);
  } catch {
    /* not JSON: keep the status */
  }
  const e = jsonObject(parsed);
  if (status === 0) return new AppError({ status: 0, code: "network_error", message: "The upload failed: network error." });
  const code = jsonString(e.error) ?? `http_${status}`;
  const message = jsonString(e.message) ?? (statusText || `HTTP ${status}`);
  return new AppError({ status, code, message });
}

async function accessToken(): Promise<string> {
  const { data } = await (await loadSupabase()).auth.getSession();
  const token = data.session?.access_token;
  if (!token) throw new AppError({ status: 401, code: "session_required", message: "Sign in again to continue." });
  return token;
}

export async function uploadSourceFile(path: string, file: Blob, mime: string, onProgress: (fraction: number) => void, options: UploadOptions = {}): Promise<void> {
  const { signal } = options;
  if (signal?.aborted) throw cancelled();
  const token = await accessToken();
  if (file.size > getConfig().resumableUploadThreshold) return uploadResumable(path, file, mime, onProgress, token, options);
  const { supabaseUrl, supabaseAnonKey } = getConfig();
  const url = `${supabaseUrl}/storage/v1/object/${SOURCES_BUCKET}/${path.split("/").map(encodeURIComponent).join("/")}`;
  await new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.setRequestHeader("authorization", `Bearer ${token}`);
    xhr.setRequestHeader("apikey", supabaseAnonKey);
    xhr.setRequestHeader("content-type", mime);
    xhr.setRequestHeader("x-upsert", "false");
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve();
        return;
      }
      reject(storageError(xhr.status, xhr.responseText, xhr.statusText));
    };
    xhr.onerror = () => reject(storageError(0, "", ""));
    xhr.onabort = () => reject(cancelled());
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

async function uploadResumable(path: string, file: Blob, mime: string, onProgress: (fraction: number) => void, token: string, { signal, onRetry }: UploadOptions): Promise<void> {
  const { Upload } = await import("tus-js-client");
  if (signal?.aborted) throw cancelled();
  const { supabaseUrl, supabaseAnonKey } = getConfig();
  let first = true;
  await new Promise<void>((resolve, reject) => {
    const upload = new Upload(file, {
      endpoint: `${supabaseUrl}/storage/v1/upload/resumable`,
      retryDelays: RESUMABLE_RETRY_DELAYS,
      // Supabase's docs put authorization here too; it is set in onBeforeRequest instead, with
      // the session's current token (XMLHttpRequest would send a header set in both twice).
      headers: { apikey: supabaseAnonKey, "x-upsert": "false" },
      uploadDataDuringCreation: true,
      removeFingerprintOnSuccess: true,
      metadata: { bucketName: SOURCES_BUCKET, objectName: path, contentType: mime, cacheControl: "3600" },
      chunkSize: RESUMABLE_CHUNK_BYTES,
      // A long upload can outlive the access token: each request takes the current one.
      onBeforeRequest: async (req) => {
        req.setHeader("authorization", `Bearer ${first ? token : await accessToken()}`);
        first = false;
      },
      onShouldRetry: (err) => {
        // tus-js-client's rule (no answer, 5xx, an offset conflict or a locked upload), also when
        // the browser says it is offline (a phone in a tunnel comes back), but not a 409 at
        // creation (the object exists). The screen says it is reconnecting.
        const status = err.originalResponse?.getStatus() ?? 0;
        const creating = err.originalRequest.getMethod() === "POST";
        const retry = !(status >= 400 && status < 500) || status === 423 || (status === 409 && !creating);
        if (retry) onRetry?.();
        return retry;
      },
      onProgress: (sent, total) => {
        if (total > 0) onProgress(sent / total);
      },
      onSuccess: () => {
        onProgress(1);
        resolve();
      },
      onError: (err) => {
        if (signal?.aborted) return;
        const res = "originalResponse" in err ? err.originalResponse : null;
        reject(res ? storageError(res.getStatus(), res.getBody() ?? "", "") : storageError(0, "", ""));
      },
    });
    signal?.addEventListener(
      "abort",
      () => {
        // Stops sending and asks Storage to drop what arrived (termination).
        void upload.abort(true).catch(() => undefined);
        reject(cancelled());
      },
      { once: true },
    );
    upload.start();
  });
}
