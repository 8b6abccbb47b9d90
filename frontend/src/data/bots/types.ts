// Bots as the app reads them: columns of the generated `bots` row, with `theme` (jsonb) read
// into its shape. The language and provider lists are the ones the database's checks allow.
import type { Tables } from "../../lib/database";
import { jsonObject, jsonString } from "../../lib/json";

export const BOT_LANGUAGES = ["en", "de", "es", "fr", "it", "jp", "cn", "el", "pl", "nl"] as const;
export type BotLanguage = (typeof BOT_LANGUAGES)[number];

// The provider lists live once, in the functions' contracts.
import { MODEL_PROVIDERS, type ModelProvider } from "@shared/contracts/providers.ts";
export { KEY_PROVIDERS, MODEL_PROVIDERS, type KeyProvider, type ModelProvider } from "@shared/contracts/providers.ts";

export type BotVisibility = Tables<"bots">["visibility"];

/** Suggested models per provider (free text is allowed too). */
export const MODEL_SUGGESTIONS: Record<ModelProvider, readonly string[]> = {
  extractive: [],
  openai: ["gpt-4o-mini", "gpt-4o", "gpt-4.1-mini"],
  anthropic: ["claude-3-5-haiku-latest", "claude-sonnet-4-0"],
  google: ["gemini-2.0-flash", "gemini-1.5-pro"],
  mistral: ["mistral-small-latest", "mistral-large-latest"],
  groq: ["llama-3.1-8b-instant", "llama-3.3-70b-versatile"],
  openai_compatible: ["llama3.1"],
};

/** bots.theme (jsonb). A type alias, not an interface, so it is assignable to `Json` on write. */
export type BotTheme = { primary?: string; background?: string; text?: string };

export function readTheme(value: Tables<"bots">["theme"] | null | undefined): BotTheme {
  const o = jsonObject(value ?? undefined);
  const theme: BotTheme = {};
  for (const k of ["primary", "background", "text"] as const) {
    const v = jsonString(o[k]);
    if (v !== undefined) theme[k] = v;
  }
  return theme;
}

export const BOT_COLUMNS =
  "id, team_id, name, description, avatar_url, instructions, language, model_provider, model, temperature, visibility, gallery_listed, suggested_questions, show_powered_by, theme, created_at, updated_at";

type BotColumns = "id" | "team_id" | "name" | "description" | "avatar_url" | "instructions" | "language" | "model_provider" | "model" | "temperature" | "visibility" | "gallery_listed" | "suggested_questions" | "show_powered_by" | "created_at" | "updated_at";

/** The columns' checks allow only these values; anything else reads as the default. */
export const readLanguage = (v: string): BotLanguage => BOT_LANGUAGES.find((l) => l === v) ?? "en";
export const readModelProvider = (v: string): ModelProvider => MODEL_PROVIDERS.find((p) => p === v) ?? "extractive";

export type Bot = Omit<Pick<Tables<"bots">, BotColumns>, "language" | "model_provider"> & { language: BotLanguage; model_provider: ModelProvider; theme: BotTheme };

export function toBot(row: Pick<Tables<"bots">, BotColumns | "theme">): Bot {
  return { ...row, language: readLanguage(row.language), model_provider: readModelProvider(row.model_provider), theme: readTheme(row.theme) };
}

export type BotInput = Partial<Omit<Bot, "id" | "created_at" | "updated_at">>;
