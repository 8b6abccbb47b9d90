// Images a visitor adds to a message: checked in the browser before any upload (the chat
// function checks again); data/chats/chat-image-upload stores them.
import { MAX_IMAGE_BYTES, MAX_IMAGES } from "@shared/contracts/chat.ts";
import { extensionOf, storageExtension } from "../../data/chats/chat-image-upload";

export { MAX_IMAGE_BYTES, MAX_IMAGES, storageExtension };
export const IMAGE_EXTENSIONS = ["png", "jpg", "jpeg", "webp", "gif"] as const;

export type ImageProblem = "too_large" | "unsupported_type" | "too_many";

/** Why this file cannot be attached, or null when it can. */
export function checkImage(file: { name: string; size: number; type?: string }): ImageProblem | null {
  let ext = extensionOf(file.name);
  // Pasted screenshots are often called "image.png", but some browsers give no name at all.
  if (!ext && file.type?.startsWith("image/")) ext = file.type.slice(6);
  if (!(IMAGE_EXTENSIONS as readonly string[]).includes(ext)) return "unsupported_type";
  if (file.size > MAX_IMAGE_BYTES) return "too_large";
  return null;
}
