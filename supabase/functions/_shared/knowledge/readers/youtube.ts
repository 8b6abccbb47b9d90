// YouTube sources: a video, playlist or channel URL. Playlists and channels are
// listed through their RSS feeds (/feeds/videos.xml?playlist_id= / channel_id=);
// each video's watch page gives its title and captionTracks, and the chosen
// track (the bot's language, else English, else the first) is read as json3
// from /api/timedtext. Text carries [m:ss] markers and metadata the segment
// start times, so answers can cite a moment. Base URL: PARLEY_YOUTUBE_URL.
import { safeFetch, SafeFetchError } from "../../safe-fetch.ts";
import { type SourceContext, SourceError } from "./types.ts";

export interface YoutubeSettings {
  url: string;
  languages?: string[];
  max_videos?: number;
  base_url?: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the vendor API's JSON, read defensively field by field
type Json = any;

function youtubeBase(override?: string): string {
  return (override || Deno.env.get("PARLEY_YOUTUBE_URL") || "https://www.youtube.com").replace(/\/+$/, "");
}

/** Product language codes → YouTube caption language codes. */
const CAPTION_LANG: Record<string, string> = { jp: "ja", cn: "zh" };

export type YoutubeTarget =
  | { kind: "video"; id: string }
  | { kind: "playlist"; id: string }
  | { kind: "channel"; id: string }
  | { kind: "handle"; path: string };

export function parseYoutubeUrl(input: string): YoutubeTarget | null {
  let u: URL;
  try {
    u = new URL(input.trim());
  } catch {
    return /^[\w-]{11}$/.test(input.trim()) ? { kind: "video", id: input.trim() } : null;
  }
  const v = u.searchParams.get("v");
  if (u.hostname === "youtu.be") {
    const id = u.pathname.slice(1).split("/")[0];
    return /^[\w-]{11}$/.test(id) ? { kind: "video", id } : null;
  }
  if (v && /^[\w-]{11}$/.test(v)) return { kind: "video", id: v };
  const list = u.searchParams.get("list");
  if (list && /^[\w-]+$/.test(list)) return { kind: "playlist", id: list };
  const shorts = /^\/(?:shorts|embed|live)\/([\w-]{11})/.exec(u.pathname);
  if (shorts) return { kind: "video", id: shorts[1] };
  const channel = /^\/channel\/(UC[\w-]{22})/.exec(u.pathname);
  if (channel) return { kind: "channel", id: channel[1] };
  if (/^\/(@[\w.-]+|c\/[\w.-]+|user\/[\w.-]+)/.test(u.pathname)) {
    return {
      kind: "handle",
      path: u.pathname
        .split("/")
        .slice(0, u.pathname.startsWith("/@") ? 2 : 3)
        .join("/"),
    };
  }
  return null;
}

async function get(url: string, ctx: SourceContext): Promise<string> {
  let res;
  try {
    res = await safeFetch(url, {
      allowPrivate: ctx.allowPrivate,
      timeoutMs: 30_000,
      maxBytes: 8 * 1024 * 1024,
      headers: { "accept-language": "en" },
    });
  } catch (e) {
    throw new SourceError((e as SafeFetchError).code ?? "youtube_unreachable", (e as Error).message);
  }
  if (res.status === 404)
    throw new SourceError("youtube_not_found", `YouTube has no such page (${new URL(url).pathname})`);
  if (res.status >= 400) throw new SourceError("youtube_error", `YouTube answered ${res.status}`);
  return res.text();
}

function decodeXml(s: string): string {
  return s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, "&");
}

async function feedVideoIds(base: string, query: string, ctx: SourceContext): Promise<string[]> {
  const xml = await get(`${base}/feeds/videos.xml?${query}`, ctx);
  return [...xml.matchAll(/<yt:videoId>([\w-]{11})<\/yt:videoId>/g)].map((m) => m[1]);
}

/** The JSON value that starts at `from` (an array or object), by bracket matching. */
export function jsonAt(text: string, from: number): Json | null {
  if (from < 0 || (text[from] !== "[" && text[from] !== "{")) return null;
  let depth = 0;
  let inString = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") {
      if (--depth === 0) {
        try {
          return JSON.parse(text.slice(from, i + 1));
        } catch {
          return null;
        }
      }
    }
  }
  return null;
}

interface CaptionTrack {
  baseUrl: string;
  languageCode: string;
  kind?: string;
}

export function pickTrack(tracks: CaptionTrack[], preferred: string[]): CaptionTrack | null {
  for (const lang of preferred) {
    const manual = tracks.find((t) => t.languageCode.toLowerCase().startsWith(lang) && t.kind !== "asr");
    if (manual) return manual;
    const auto = tracks.find((t) => t.languageCode.toLowerCase().startsWith(lang));
    if (auto) return auto;
  }
  return tracks[0] ?? null;
}

export function formatTime(ms: number): string {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** json3 events → paragraphs of about 30 seconds, each starting with its [m:ss] marker. */
export function transcriptToText(events: Json[]): { text: string; segments: { start_ms: number; text: string }[] } {
  const segments: { start_ms: number; text: string }[] = [];
  for (const ev of events ?? []) {
    const text = (ev.segs ?? [])
      .map((s: Json) => s.utf8 ?? "")
      .join("")
      .replace(/\s+/g, " ")
      .trim();
    if (text) segments.push({ start_ms: Number(ev.tStartMs ?? 0), text });
  }
  const paragraphs: string[] = [];
  let start = -1;
  let buf: string[] = [];
  for (const seg of segments) {
    if (start < 0) start = seg.start_ms;
    buf.push(seg.text);
    if (seg.start_ms - start >= 30_000) {
      paragraphs.push(`[${formatTime(start)}] ${buf.join(" ")}`);
      buf = [];
      start = -1;
    }
  }
  if (buf.length) paragraphs.push(`[${formatTime(start)}] ${buf.join(" ")}`);
  return { text: paragraphs.join("\n\n"), segments };
}

async function readVideo(base: string, id: string, preferred: string[], ctx: SourceContext) {
  const html = await get(`${base}/watch?v=${id}&hl=en`, ctx);
  const at = html.indexOf('"captionTracks":');
  const titleMatch =
    /"videoDetails":\{[^]*?"title":"((?:[^"\\]|\\.)*)"/.exec(html) ?? /<title>([^<]*)<\/title>/.exec(html);
  let title = titleMatch ? titleMatch[1] : id;
  try {
    title = titleMatch?.[0].startsWith('"videoDetails"') ? JSON.parse(`"${titleMatch[1]}"`) : decodeXml(title);
  } catch {
    /* keep the raw title */
  }
  title = title.replace(/ - YouTube$/, "");
  if (at < 0) throw new SourceError("no_transcript", "This video has no captions to import");
  const tracks = (jsonAt(html, html.indexOf("[", at)) ?? []) as CaptionTrack[];
  const track = pickTrack(
    tracks.filter((t) => t?.baseUrl && t?.languageCode),
    preferred,
  );
  if (!track) throw new SourceError("no_transcript", "This video has no captions to import");
  const trackUrl = new URL(track.baseUrl.replace(/\\u0026/g, "&"), base + "/");
  trackUrl.searchParams.set("fmt", "json3");
  const body = await get(trackUrl.href, ctx);
  let events: Json[];
  try {
    events = JSON.parse(body).events ?? [];
  } catch {
    throw new SourceError("invalid_transcript", "The transcript could not be read");
  }
  const { text, segments } = transcriptToText(events);
  if (!text) throw new SourceError("no_transcript", "The transcript is empty");
  return { title, text, language: track.languageCode, segments };
}

export async function readYoutube(settings: YoutubeSettings, ctx: SourceContext): Promise<void> {
  const target = parseYoutubeUrl(settings.url);
  if (!target) throw new SourceError("invalid_youtube_url", "Not a YouTube video, playlist or channel address");
  const base = youtubeBase(settings.base_url);
  let ids: string[];
  if (target.kind === "video") ids = [target.id];
  else if (target.kind === "playlist")
    ids = await feedVideoIds(base, `playlist_id=${encodeURIComponent(target.id)}`, ctx);
  else {
    let channelId = target.kind === "channel" ? target.id : null;
    if (target.kind === "handle") {
      const page = await get(`${base}${target.path}`, ctx);
      channelId =
        /"(?:externalId|channelId)":"(UC[\w-]{22})"/.exec(page)?.[1] ??
        /<meta itemprop="(?:channelId|identifier)" content="(UC[\w-]{22})"/.exec(page)?.[1] ??
        null;
      if (!channelId) throw new SourceError("youtube_not_found", "Could not find the channel on that page");
    }
    ids = await feedVideoIds(base, `channel_id=${channelId}`, ctx);
  }
  ids = [...new Set(ids)].slice(0, Math.min(Math.max(settings.max_videos ?? 50, 1), 500));
  const lang = CAPTION_LANG[ctx.botLanguage] ?? ctx.botLanguage;
  const preferred = [...(settings.languages ?? []), lang, "en"];
  let done = 0;
  for (const id of ids) {
    if (await ctx.cancelled()) return;
    const url = `https://www.youtube.com/watch?v=${id}`;
    try {
      const video = await readVideo(base, id, preferred, ctx);
      await ctx.emit({
        url,
        title: video.title,
        text: video.text,
        language: video.language,
        metadata: { video_id: id, caption_language: video.language, segments: video.segments.slice(0, 5000) },
      });
    } catch (e) {
      ctx.fail(url, (e as SourceError).code ?? "youtube_error", (e as Error).message);
    }
    await ctx.progress(++done, ids.length);
  }
}
