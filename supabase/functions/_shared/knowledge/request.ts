// Bodies of the knowledge functions (ingest, notion-connect): bounded JSON checked with a
// zod schema; an empty body is `{}`. Bad JSON → 400 invalid_json, text the database cannot
// store → 400 invalid_request (http.ts parseJson), a wrong shape → 400 invalid_body naming the field.
import type { z } from "npm:zod@3.25.76";
import { HttpError, parseJson, readBoundedText } from "../http.ts";

export async function readBody<T>(req: Request, schema: z.ZodType<T, z.ZodTypeDef, unknown>): Promise<T> {
  const text = (await readBoundedText(req, 16 * 1024)).trim();
  const raw: unknown = text ? parseJson(text) : {};
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new HttpError(400, "invalid_body", `${issue.path.join(".") || "body"}: ${issue.message}`);
  }
  return parsed.data;
}
