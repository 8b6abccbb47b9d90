// Reader of `file` sources: files the owner uploaded to the data-sources bucket under the
// bot's folder, each turned into documents by files.ts (PDF, DOCX, CSV rows, Markdown, text).
import type { Db } from "../../clients.ts";
import { fileToDocuments } from "./files.ts";
import { type SourceContext, SourceError } from "./types.ts";

export interface StorageFileSettings {
  files: { path: string; name?: string; mime?: string | null }[];
  text_columns?: string[];
  title_column?: string;
}

/** Under the bot's folder, with no segment that could climb out of it (also encoded). */
function isInBotFolder(path: string, botId: string): boolean {
  if (!path.startsWith(`${botId}/`)) return false;
  return !path.split("/").some((seg) => {
    let plain = seg;
    try {
      plain = decodeURIComponent(seg);
    } catch {
      return true;
    }
    return plain === "." || plain === ".." || plain.includes("/") || plain.includes("\\");
  });
}

export async function readStorageFiles(
  service: Db,
  botId: string,
  settings: StorageFileSettings,
  ctx: SourceContext,
): Promise<void> {
  let done = 0;
  for (const file of settings.files) {
    if (await ctx.cancelled()) return;
    const name = file.name || file.path.split("/").pop() || file.path;
    try {
      if (!isInBotFolder(file.path, botId)) {
        throw new SourceError("forbidden_path", "Files must be uploaded under the bot's folder");
      }
      const { data, error } = await service.storage.from("data-sources").download(file.path);
      if (error || !data) throw new SourceError("file_not_found", `${name} was not found in storage`);
      const bytes = new Uint8Array(await data.arrayBuffer());
      const docs = await fileToDocuments(bytes, { path: file.path, name, mime: file.mime }, settings);
      for (const doc of docs) {
        if (await ctx.cancelled()) return;
        await ctx.emit(doc);
      }
    } catch (e) {
      ctx.fail(file.path, (e as SourceError).code ?? "file_error", (e as Error).message);
    }
    await ctx.progress(++done, settings.files.length);
  }
}
