// Avatars are stored as object paths in the public `avatars` bucket (migration
// 20261123000200: never an external URL, so visitors' browsers only ever load images from the
// project's own storage). This turns a stored path into the bucket's public URL without
// loading supabase-js (public pages show avatars too).
import { getConfig } from "./config";

export function avatarSrc(path: string | null | undefined): string | undefined {
  if (!path) return undefined;
  // Just uploaded: the upload answers with the bucket's public URL (stored as its path).
  if (/^https?:\/\//i.test(path)) return path;
  const base = getConfig().supabaseUrl.replace(/\/+$/, "");
  return `${base}/storage/v1/object/public/avatars/${path.split("/").map(encodeURIComponent).join("/")}`;
}
