// What a message may hold. Postgres text cannot store NUL, and an unpaired UTF-16 surrogate
// cannot be encoded as UTF-8: both are the caller's mistake (400), never a 500.
import { MAX_MESSAGE_CHARS } from "../contracts/chat.ts";
import { isStorableText } from "../http.ts";

/** Why a message cannot be answered, or null. */
export function messageProblem(message: string): string | null {
  const text = message.trim();
  if (!text) return "The message is empty";
  if (text.length > MAX_MESSAGE_CHARS) return `A message has at most ${MAX_MESSAGE_CHARS} characters`;
  if (!isStorableText(text)) return "The message contains characters that cannot be stored (NUL or an unpaired surrogate)";
  return null;
}
