import { fetchTranscript } from "../../data/chats/transcript-download";

/** Fetches the transcript and saves it as a file. */
export async function downloadTranscript(chatId: string, format: "txt" | "md"): Promise<void> {
  const { blob, filename } = await fetchTranscript(chatId, format);
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
