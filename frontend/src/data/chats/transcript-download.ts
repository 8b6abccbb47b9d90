import type { TranscriptFormat, TranscriptQuery } from "@shared/contracts/transcript.ts";
import { localeFromPath, type LocaleCode } from "../../i18n/locales";
import { requestFunction } from "../../lib/functions";

/**
 * The transcript as a file (the token is a header, so no plain link will do), labelled in the
 * app's language: `lang` defaults to the locale of the page's URL, which is how the router
 * chooses the interface language, so the file does not follow the browser's Accept-Language.
 */
export async function fetchTranscript(
  chatId: string,
  format: TranscriptFormat,
  lang: LocaleCode = localeFromPath(window.location.pathname),
): Promise<{ blob: Blob; filename: string }> {
  const query: TranscriptQuery = { chat_id: chatId, format, lang };
  const res = await requestFunction("transcript", { method: "GET", query: { ...query } });
  const filename = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? `chat.${format}`;
  return { blob: await res.blob(), filename };
}
