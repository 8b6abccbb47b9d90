// The body of POST /chat (contracts/chat.ts), checked with zod.
import { z } from "npm:zod@3.25.76";
import { type ChatRequest, MAX_IMAGES, MAX_MESSAGE_CHARS, VISITOR_CHANNELS } from "../_shared/contracts/chat.ts";
import { isStorableText } from "../_shared/http.ts";

export const chatRequestSchema = z
  .object({
    bot_id: z.string().uuid(),
    chat_id: z.string().uuid().optional(),
    message: z
      .string()
      .trim()
      .min(1, "The message is empty")
      .max(MAX_MESSAGE_CHARS, `A message has at most ${MAX_MESSAGE_CHARS} characters`)
      .refine(isStorableText, "The message contains characters that cannot be stored (NUL or an unpaired surrogate)"),
    images: z
      .array(
        z.object({
          path: z
            .string()
            .min(3)
            .max(512)
            .refine(isStorableText, "Invalid image path")
            .refine((p) => !p.split("/").some((s) => s === ".." || s === "." || s === ""), "Invalid image path"),
        }),
      )
      .max(MAX_IMAGES, `At most ${MAX_IMAGES} images per message`)
      .optional(),
    channel: z.enum(VISITOR_CHANNELS).optional(),
  })
  .strict() satisfies z.ZodType<ChatRequest, z.ZodTypeDef, unknown>;
