// The body of POST /chat.
import { z } from "npm:zod@3.25.76";

export const MAX_MESSAGE_CHARS = 4000;
export const MAX_IMAGES = 4;
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;
export const CHANNELS = ["web", "widget", "api", "slack", "discord", "telegram", "whatsapp"] as const;

export const chatRequestSchema = z
  .object({
    bot_id: z.string().uuid(),
    chat_id: z.string().uuid().optional(),
    message: z
      .string()
      .trim()
      .min(1, "The message is empty")
      .max(MAX_MESSAGE_CHARS, `A message has at most ${MAX_MESSAGE_CHARS} characters`),
    images: z
      .array(
        z.object({
          path: z
            .string()
            .min(3)
            .max(512)
            .refine((p) => !p.split("/").some((s) => s === ".." || s === "." || s === ""), "Invalid image path"),
        }),
      )
      .max(MAX_IMAGES, `At most ${MAX_IMAGES} images per message`)
      .optional(),
    channel: z.enum(CHANNELS).optional(),
  })
  .strict();

export type ChatRequest = z.infer<typeof chatRequestSchema>;
