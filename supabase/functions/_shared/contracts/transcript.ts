// GET /functions/v1/transcript?chat_id=<uuid>&format=txt|md&lang=<en|de|...>: a chat as a text or Markdown file
// (Content-Disposition names it). 404 chat_not_found when the caller may not see the chat.

export const TRANSCRIPT_FORMATS = ["txt", "md"] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

/** The query string (not a body: the answer is a download). */
export interface TranscriptQuery {
  chat_id: string;
  /** Default "txt". */
  format?: TranscriptFormat;
  /** The labels' language, one of the app's locale codes (ja/zh also read); else Accept-Language, else English. */
  lang?: string;
}
