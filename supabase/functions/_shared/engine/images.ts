// Images attached to a message: objects the caller uploaded to the private
// chat-images bucket under their own folder. Storage policies already confine
// the caller to <uid>/..., and the bucket limits size and type; this re-checks
// both on the bytes themselves before a model sees them.
import type { Db } from "../clients.ts";
import { Buffer } from "node:buffer";
import { HttpError } from "../http.ts";
import { MAX_IMAGE_BYTES } from "../contracts/chat.ts";

export const CHAT_IMAGES_BUCKET = "chat-images";

export interface LoadedImage {
  path: string;
  mime: string;
  size: number;
  data: string;
}

/** The image type from its first bytes (never trust the name or the declared type). */
export function sniffImage(b: Uint8Array): string | null {
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return "image/png";
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image/jpeg";
  if (b.length >= 6 && b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38) return "image/gif";
  if (
    b.length >= 12 &&
    b[0] === 0x52 &&
    b[1] === 0x49 &&
    b[2] === 0x46 &&
    b[3] === 0x46 &&
    b[8] === 0x57 &&
    b[9] === 0x45 &&
    b[10] === 0x42 &&
    b[11] === 0x50
  )
    return "image/webp";
  return null;
}

export async function loadImages(client: Db, userId: string, paths: string[]): Promise<LoadedImage[]> {
  return await Promise.all(
    paths.map(async (path) => {
      if (!path.startsWith(`${userId}/`)) {
        throw new HttpError(
          400,
          "invalid_image",
          "Images must be uploaded to your own folder of the chat-images bucket",
          { path },
        );
      }
      const { data, error } = await client.storage.from(CHAT_IMAGES_BUCKET).download(path);
      if (error || !data) throw new HttpError(400, "invalid_image", "Image not found", { path });
      if (data.size > MAX_IMAGE_BYTES) {
        throw new HttpError(400, "invalid_image", "An image can be at most 5 MB", { path });
      }
      const bytes = new Uint8Array(await data.arrayBuffer());
      const mime = sniffImage(bytes);
      if (!mime) throw new HttpError(400, "invalid_image", "Images must be PNG, JPEG, WebP or GIF", { path });
      return { path, mime, size: bytes.byteLength, data: Buffer.from(bytes).toString("base64") };
    }),
  );
}
