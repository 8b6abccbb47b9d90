import type { TranscriptFormat, TranscriptQuery } from "@shared/contracts/transcript.ts";
import { requestFunction } from "../../lib/functions";

/** The transcript as a file (the token is a header, so no plain link will do). */
export async function fetchTranscript(chatId: string, format: TranscriptFormat): Promise<{ blob: Blob; filename: string }> {
  const query: TranscriptQuery = { chat_id: chatId, format };
  const res = await requestFunction("transcript", { method: "GET", query: { ...query } });
  const filename = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? `chat.${format}`;
  return { blob: await res.blob(), filename };
}
