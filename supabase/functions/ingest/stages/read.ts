// Stage 2: read. The source's settings (checked by settings.ts) choose the reader in
// _shared/knowledge/readers/, which emits documents into the context (stage 3 stores them)
// and reports failures, warnings and progress.
import type { Db } from "../../_shared/clients.ts";
import { readNotion } from "../../_shared/knowledge/readers/notion.ts";
import { readStorageFiles } from "../../_shared/knowledge/readers/storage.ts";
import type { SourceContext } from "../../_shared/knowledge/readers/types.ts";
import { crawlWeb } from "../../_shared/knowledge/readers/web.ts";
import { readYoutube } from "../../_shared/knowledge/readers/youtube.ts";
import { must } from "../../_shared/db.ts";
import { parseSettings } from "../settings.ts";
import type { LoadedJob } from "./load.ts";

export async function readSource(service: Db, { source }: LoadedJob, ctx: SourceContext): Promise<void> {
  const settings = parseSettings(source.type, source.settings);
  switch (settings.type) {
    case "web":
      return await crawlWeb(settings.settings, ctx);
    case "text":
      await ctx.emit({ url: `text:${source.id}`, title: settings.settings.title || source.name, text: settings.settings.text });
      return await ctx.progress(1, 1);
    case "file":
      return await readStorageFiles(service, source.bot_id, settings.settings, ctx);
    case "notion": {
      const secret = must(
        await service.from("data_source_secrets").select("notion_access_token").eq("data_source_id", source.id).maybeSingle(),
        "notion token",
      );
      return await readNotion(settings.settings, secret?.notion_access_token ?? null, ctx);
    }
    case "youtube":
      return await readYoutube(settings.settings, ctx);
  }
}
