// Uploads to Storage with progress: fetch() has no upload progress, XMLHttpRequest does.
// Same endpoint and headers supabase-js uses (POST /storage/v1/object/<bucket>/<path>).
import { getConfig } from "../../lib/config";
import type { Json } from "../../lib/database";
import { AppError } from "../../lib/errors";
import { jsonObject, jsonString } from "../../lib/json";
import { loadSupabase } from "../../lib/supabase-ready";

export const SOURCES_BUCKET = "data-sources";

export async function uploadSourceFile(path: string, file: Blob, mime: string, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<void> {
  const { data } = await (await loadSupabase()).auth.getSession();
  const token = data.session?.access_token;
  if (!token) throw new AppError({ status: 401, code: "session_required", message: "Sign in again to continue." });
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
      let body: Json | undefined;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON: keep the status */
      }
      // Storage answers { statusCode, error, message }.
      const e = jsonObject(body);
      const code = jsonString(e.error) ?? `http_${xhr.status}`;
      const message = jsonString(e.message) ?? (xhr.statusText || `HTTP ${xhr.status}`);
      reject(new AppError({ status: xhr.status, code, message }));
    };
    xhr.onerror = () => reject(new AppError({ status: 0, code: "network_error", message: "The upload failed: network error." }));
    xhr.onabort = () => reject(new AppError({ status: 0, code: "aborted", message: "The upload was cancelled." }));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}
