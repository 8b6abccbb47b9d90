// Images a visitor adds to a message: checked in the browser before any upload (the chat
// function checks again), then stored in the private chat-images bucket under the
// visitor's own folder, which is what the bucket's policy allows.
import type { SupabaseClient } from "@supabase/supabase-js";

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const MAX_IMAGES = 4;
export const IMAGE_EXTENSIONS = ["png", "jpg", "jpeg", "webp", "gif"] as const;
export const IMAGE_BUCKET = "chat-images";

export type ImageProblem = "too_large" | "unsupported_type" | "too_many";

export function extensionOf(name: string): string {
  const m = /\.([a-z0-9]+)$/i.exec(name);
  return m ? m[1]!.toLowerCase() : "";
}

/** Why this file cannot be attached, or null when it can. */
export function checkImage(file: { name: string; size: number; type?: string }): ImageProblem | null {
  let ext = extensionOf(file.name);
  // Pasted screenshots are often called "image.png", but some browsers give no name at all.
  if (!ext && file.type?.startsWith("image/")) ext = file.type.slice(6);
  if (!(IMAGE_EXTENSIONS as readonly string[]).includes(ext)) return "unsupported_type";
  if (file.size > MAX_IMAGE_BYTES) return "too_large";
  return null;
}

export function storageExtension(file: { name: string; type?: string }): string {
  const ext = extensionOf(file.name) || (file.type?.startsWith("image/") ? file.type.slice(6) : "png");
  return ext === "jpeg" ? "jpg" : ext;
}

export async function uploadImage(client: SupabaseClient, userId: string, file: File): Promise<string> {
  const path = `${userId}/${crypto.randomUUID()}.${storageExtension(file)}`;
  const contentType = file.type || `image/${storageExtension(file) === "jpg" ? "jpeg" : storageExtension(file)}`;
  const { error } = await client.storage.from(IMAGE_BUCKET).upload(path, file, { contentType, upsert: false });
  if (error) throw Object.assign(new Error(error.message), { code: "upload_failed" });
  return path;
}
