// Uploads to Storage with progress: fetch() has no upload progress, XMLHttpRequest does.
// Same endpoint and headers supabase-js uses (POST /storage/v1/object/<bucket>/<path>).
import { getConfig } from "../../lib/config";
import { getSupabase } from "../../lib/supabase";

export const SOURCES_BUCKET = "data-sources";

export class UploadError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "UploadError";
  }
}

export async function uploadSourceFile(path: string, file: Blob, mime: string, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<void> {
  const { data } = await getSupabase().auth.getSession();
  const token = data.session?.access_token;
  if (!token) throw new UploadError(401, "not_signed_in", "Sign in again to continue.");
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
      let body: { error?: string; message?: string; statusCode?: string } = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        /* not JSON: keep the status */
      }
      reject(new UploadError(xhr.status, body.error ?? `http_${xhr.status}`, body.message ?? (xhr.statusText || `HTTP ${xhr.status}`)));
    };
    xhr.onerror = () => reject(new UploadError(0, "network_error", "The upload failed: network error."));
    xhr.onabort = () => reject(new UploadError(0, "aborted", "The upload was cancelled."));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}
