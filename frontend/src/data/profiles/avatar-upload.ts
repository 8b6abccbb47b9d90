// Uploads an image to the public `avatars` bucket under the caller's folder and returns its
// public URL. The bucket enforces the same limits; checking here gives a clear message first.
import { AppError, toAppError } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";

export const AVATAR_MAX_BYTES = 1024 * 1024;
export const AVATAR_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;

export type AvatarProblem = "too_large" | "wrong_type" | null;

export function checkAvatarFile(file: File): AvatarProblem {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) return "wrong_type";
  if (file.size > AVATAR_MAX_BYTES) return "too_large";
  return null;
}

const EXT: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "image/gif": "gif" };

/** `kind` is "profile" or "bots/<botId>": the file lands at <uid>/<kind>-<time>.<ext>. */
export async function uploadAvatar(file: File, kind: string): Promise<string> {
  const problem = checkAvatarFile(file);
  if (problem) throw new AppError({ status: 0, code: `avatar_${problem}`, message: problem });
  const client = await loadSupabase();
  const { data: auth } = await client.auth.getSession();
  const uid = auth.session?.user.id;
  if (!uid) throw new AppError({ status: 401, code: "401", message: "Sign in first" });
  const path = `${uid}/${kind}-${Date.now()}.${EXT[file.type]}`;
  const { error } = await client.storage.from("avatars").upload(path, file, { contentType: file.type, upsert: false });
  if (error) throw toAppError(error);
  return client.storage.from("avatars").getPublicUrl(path).data.publicUrl;
}
