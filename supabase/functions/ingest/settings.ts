// The settings shape of each data source type (data_sources.settings), checked
// before a job reads anything.
import { z } from "npm:zod@3.25.76";
import { SourceError } from "../_shared/knowledge/readers/types.ts";
import { DEFAULT_CONCURRENCY } from "../_shared/knowledge/readers/web.ts";

const httpUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((s) => /^https?:\/\//i.test(s), "must be an http(s) address");
const patterns = z.array(z.string().max(500)).max(50).optional();
const selectors = z.array(z.string().max(300)).max(30).optional();

export const webSettings = z.object({
  url: httpUrl,
  mode: z.enum(["single", "crawl"]).default("crawl"),
  max_depth: z.number().int().min(0).max(20).default(3),
  max_pages: z.number().int().min(1).max(5000).default(100),
  include: patterns,
  exclude: patterns,
  keep_selectors: selectors,
  drop_selectors: selectors,
  use_sitemap: z.boolean().default(true),
  /** The least time between the starts of two requests to the site. */
  delay_ms: z.number().int().min(0).max(10_000).default(200),
  /** Pages fetched at once. */
  concurrency: z.number().int().min(1).max(8).default(DEFAULT_CONCURRENCY),
});

export const fileSettings = z.object({
  files: z
    .array(
      z.object({
        path: z.string().min(3).max(1024),
        name: z.string().max(300).optional(),
        mime: z.string().max(200).nullish(),
      }),
    )
    .min(1)
    .max(200),
  text_columns: z.array(z.string().max(200)).max(100).optional(),
  title_column: z.string().max(200).optional(),
});

export const notionSettings = z.object({
  pages: z.array(z.string().max(300)).max(500).default([]),
  databases: z.array(z.string().max(300)).max(100).default([]),
  /** A Notion API proxy or compatible server; default PARLEY_NOTION_API_URL or https://api.notion.com. */
  api_url: httpUrl.optional(),
});

export const youtubeSettings = z.object({
  url: httpUrl,
  languages: z.array(z.string().max(20)).max(10).optional(),
  max_videos: z.number().int().min(1).max(500).default(50),
  /** A YouTube-compatible front end; default PARLEY_YOUTUBE_URL or https://www.youtube.com. */
  base_url: httpUrl.optional(),
});

export const textSettings = z.object({
  text: z.string().min(1).max(2_000_000),
  title: z.string().max(300).optional(),
});

export type ParsedSettings =
  | { type: "web"; settings: z.infer<typeof webSettings> }
  | { type: "file"; settings: z.infer<typeof fileSettings> }
  | { type: "notion"; settings: z.infer<typeof notionSettings> }
  | { type: "youtube"; settings: z.infer<typeof youtubeSettings> }
  | { type: "text"; settings: z.infer<typeof textSettings> };

const schemas = {
  web: webSettings,
  file: fileSettings,
  notion: notionSettings,
  youtube: youtubeSettings,
  text: textSettings,
};

export function parseSettings(type: string, settings: unknown): ParsedSettings {
  const schema = schemas[type as keyof typeof schemas];
  if (!schema) throw new SourceError("invalid_settings", `Unknown data source type ${type}`);
  const parsed = schema.safeParse(settings ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SourceError("invalid_settings", `Settings: ${issue.path.join(".") || "(root)"} ${issue.message}`);
  }
  return { type, settings: parsed.data } as ParsedSettings;
}
