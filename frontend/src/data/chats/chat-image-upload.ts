// Images a visitor adds to a message: stored in the private chat-images bucket under the
// visitor's own folder, which is what the bucket's policy allows (the chat function checks again).
import { AppError } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";

export const IMAGE_BUCKET = "chat-images";

export function extensionOf(name: string): string {
  const m = /\.([a-z0-9]+)$/i.exec(name);
  return m ? m[1]!.toLowerCase() : "";
}

export function storageExtension(file: { name: string; type?: string }): string {
  const ext = extensionOf(file.name) || (file.type?.startsWith("image/") ? file.type.slice(6) : "png");
  return ext === "jpeg" ? "jpg" : ext;
}

/** Uploads the image; resolves with its path in the bucket. */
export async function uploadChatImage(userId: string, file: File): Promise<string> {
  const path = `${userId}/${crypto.randomUUID()}.${storageExtension(file)}`;
  const contentType = file.type || `image/${storageExtension(file) === "jpg" ? "jpeg" : storageExtension(file)}`;
  const { error } = await (await loadSupabase()).storage.from(IMAGE_BUCKET).upload(path, file, { contentType, upsert: false });
  if (error) throw new AppError({ status: 0, code: "upload_failed", message: error.message });
  return path;
}
