// Notion sources: the picked pages and databases (every page of a database),
// read through Notion's REST API (blocks, recursively) into text with headings.
// Base URL: PARLEY_NOTION_API_URL (default https://api.notion.com); a source's `api_url` only in
// development (PARLEY_FETCH_ALLOW_PRIVATE=1).
import type { NotionPickerItem } from "../../contracts/notion-connect.ts";
import { safeFetch, SafeFetchError } from "../../safe-fetch.ts";
import { type SourceContext, SourceError } from "./types.ts";

export interface NotionSettings {
  pages?: string[];
  databases?: string[];
  api_url?: string;
}

export const NOTION_VERSION = "2022-06-28";
const MAX_BLOCKS = 5000;
const MAX_DEPTH = 6;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the vendor API's JSON, read defensively field by field
type Json = any;

function notionBase(override?: string): string {
  return (override || Deno.env.get("PARLEY_NOTION_API_URL") || "https://api.notion.com").replace(/\/+$/, "");
}

/** Accepts a page id with or without dashes, or a notion.so URL ending in one. */
export function notionId(input: string): string | null {
  const hex = /([0-9a-f]{32})(?:[?#].*)?$/i.exec(input.replace(/-/g, ""))?.[1];
  if (!hex) return null;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`.toLowerCase();
}

const richText = (rt: Json[] | undefined) => (rt ?? []).map((t: Json) => t?.plain_text ?? "").join("");

function pageTitle(page: Json): string {
  for (const prop of Object.values(page?.properties ?? {}) as Json[]) {
    if (prop?.type === "title") return richText(prop.title) || "Untitled";
  }
  return "Untitled";
}


/**
 * One page of POST /v1/search: pages and databases shared with the integration, most
 * recently edited first. Rows of a database are left out (picking the database imports
 * them), and so is anything archived or in the trash.
 */
export async function searchWorkspace(
  client: NotionClient,
  opts: { query?: string; cursor?: string; pageSize?: number } = {},
): Promise<{ results: NotionPickerItem[]; next_cursor: string | null }> {
  const res = await client.call("POST", "/v1/search", {
    ...(opts.query ? { query: opts.query } : {}),
    ...(opts.cursor ? { start_cursor: opts.cursor } : {}),
    page_size: opts.pageSize ?? 50,
    sort: { direction: "descending", timestamp: "last_edited_time" },
  });
  const results: NotionPickerItem[] = [];
  for (const r of (res.results ?? []) as Json[]) {
    if ((r?.object !== "page" && r?.object !== "database") || typeof r.id !== "string") continue;
    if (r.archived || r.in_trash || r.parent?.type === "database_id") continue;
    results.push({
      id: r.id,
      type: r.object,
      title: (r.object === "database" ? richText(r.title) : pageTitle(r)) || "Untitled",
      url: typeof r.url === "string" ? r.url : null,
      icon: r.icon?.type === "emoji" && typeof r.icon.emoji === "string" ? r.icon.emoji : null,
      last_edited_time: typeof r.last_edited_time === "string" ? r.last_edited_time : null,
    });
  }
  return { results, next_cursor: res.has_more && typeof res.next_cursor === "string" ? res.next_cursor : null };
}

export class NotionClient {
  constructor(
    private token: string,
    private allowPrivate?: boolean,
    private apiUrl?: string,
  ) {}

  async call(method: string, path: string, body?: unknown): Promise<Json> {
    let res;
    try {
      res = await safeFetch(`${notionBase(this.apiUrl)}${path}`, {
        method,
        body: body === undefined ? undefined : JSON.stringify(body),
        headers: {
          authorization: `Bearer ${this.token}`,
          "notion-version": NOTION_VERSION,
          "content-type": "application/json",
        },
        allowPrivate: this.allowPrivate,
        timeoutMs: 30_000,
      });
    } catch (e) {
      throw new SourceError((e as SafeFetchError).code ?? "notion_unreachable", (e as Error).message);
    }
    let data: Json = {};
    try {
      data = res.json();
    } catch {
      data = {};
    }
    if (res.status === 401)
      throw new SourceError("notion_unauthorized", "Notion refused the access token; reconnect Notion");
    if (res.status === 404)
      throw new SourceError("notion_not_found", "Notion could not find it (is it shared with the integration?)");
    if (res.status >= 400)
      throw new SourceError("notion_error", `Notion answered ${res.status}: ${data?.message ?? ""}`.trim());
    return data;
  }

  /** Text of a block tree, with headings as `#` lines. */
  async blocksToText(blockId: string, depth = 0, counter = { n: 0 }): Promise<string> {
    const lines: string[] = [];
    let cursor: string | undefined;
    do {
      const q = `page_size=100${cursor ? `&start_cursor=${encodeURIComponent(cursor)}` : ""}`;
      const page = await this.call("GET", `/v1/blocks/${blockId}/children?${q}`);
      for (const block of page.results ?? []) {
        if (++counter.n > MAX_BLOCKS) return lines.join("\n");
        const type = block.type as string;
        const v = block[type] ?? {};
        const text = richText(v.rich_text);
        const indent = "  ".repeat(Math.min(depth, 4));
        switch (type) {
          case "heading_1":
            lines.push(`\n# ${text}\n`);
            break;
          case "heading_2":
            lines.push(`\n## ${text}\n`);
            break;
          case "heading_3":
            lines.push(`\n### ${text}\n`);
            break;
          case "bulleted_list_item":
          case "toggle":
            lines.push(`${indent}- ${text}`);
            break;
          case "numbered_list_item":
            lines.push(`${indent}1. ${text}`);
            break;
          case "to_do":
            lines.push(`${indent}- [${v.checked ? "x" : " "}] ${text}`);
            break;
          case "quote":
          case "callout":
            lines.push(`\n> ${text}\n`);
            break;
          case "code":
            lines.push("\n```\n" + text + "\n```\n");
            break;
          case "child_page":
            lines.push(`\n${v.title ?? ""}\n`);
            break;
          case "table_row":
            lines.push(`| ${(v.cells ?? []).map((c: Json[]) => richText(c)).join(" | ")} |`);
            break;
          default:
            if (text) lines.push(`\n${text}\n`);
        }
        if (block.has_children && type !== "child_page" && type !== "child_database" && depth < MAX_DEPTH) {
          lines.push(await this.blocksToText(block.id, depth + 1, counter));
        }
      }
      cursor = page.has_more ? page.next_cursor : undefined;
    } while (cursor);
    return lines.join("\n");
  }

  async databasePages(databaseId: string): Promise<Json[]> {
    const pages: Json[] = [];
    let cursor: string | undefined;
    do {
      const res = await this.call("POST", `/v1/databases/${databaseId}/query`, {
        page_size: 100,
        ...(cursor ? { start_cursor: cursor } : {}),
      });
      pages.push(...(res.results ?? []).filter((r: Json) => r.object === "page"));
      cursor = res.has_more ? res.next_cursor : undefined;
    } while (cursor && pages.length < 2000);
    return pages;
  }
}

export async function readNotion(settings: NotionSettings, token: string | null, ctx: SourceContext): Promise<void> {
  if (!token)
    throw new SourceError("notion_not_connected", "Connect Notion first: no access token is stored for this source");
  // A source's own API address is a development setting (tests point it at a local Notion): it is
  // honoured only with the dev allowance for private addresses. Otherwise the operator's
  // PARLEY_NOTION_API_URL or Notion's own is used, so a team's stored token goes nowhere else.
  const devApiUrl = (ctx.allowPrivate ?? Deno.env.get("PARLEY_FETCH_ALLOW_PRIVATE") === "1") ? settings.api_url : undefined;
  const client = new NotionClient(token, ctx.allowPrivate, devApiUrl);
  const targets: { id: string; page?: Json }[] = [];
  for (const raw of settings.pages ?? []) {
    const id = notionId(raw);
    if (id) targets.push({ id });
    else ctx.fail(raw, "invalid_notion_id", "Not a Notion page id or URL");
  }
  for (const raw of settings.databases ?? []) {
    const id = notionId(raw);
    if (!id) {
      ctx.fail(raw, "invalid_notion_id", "Not a Notion database id or URL");
      continue;
    }
    try {
      for (const page of await client.databasePages(id)) targets.push({ id: page.id, page });
    } catch (e) {
      ctx.fail(`notion:database:${id}`, (e as SourceError).code ?? "notion_error", (e as Error).message);
    }
  }
  let done = 0;
  for (const target of targets) {
    if (await ctx.cancelled()) return;
    const url = `https://www.notion.so/${target.id.replace(/-/g, "")}`;
    try {
      const page = target.page ?? (await client.call("GET", `/v1/pages/${target.id}`));
      const title = pageTitle(page);
      const text = await client.blocksToText(target.id);
      await ctx.emit({
        url,
        title,
        text,
        metadata: {
          notion_id: target.id,
          notion_url: page.url ?? null,
          last_edited_time: page.last_edited_time ?? null,
        },
      });
    } catch (e) {
      ctx.fail(url, (e as SourceError).code ?? "notion_error", (e as Error).message);
    }
    await ctx.progress(++done, targets.length);
  }
}
