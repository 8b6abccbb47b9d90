export const BOT_LANGUAGES = ["en", "de", "es", "fr", "it", "jp", "cn", "el", "pl", "nl"] as const;
export type BotLanguage = (typeof BOT_LANGUAGES)[number];
export const MODEL_PROVIDERS = ["extractive", "openai", "anthropic", "google", "mistral", "groq", "openai_compatible"] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];
export type BotVisibility = "private" | "public" | "password";

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

export interface BotTheme {
  primary?: string;
  background?: string;
}

export interface Bot {
  id: string;
  team_id: string;
  name: string;
  description: string | null;
  avatar_url: string | null;
  instructions: string;
  language: BotLanguage;
  model_provider: ModelProvider;
  model: string | null;
  temperature: number;
  visibility: BotVisibility;
  gallery_listed: boolean;
  suggested_questions: string[];
  show_powered_by: boolean;
  theme: BotTheme;
  created_at: string;
  updated_at: string;
}

export const BOT_COLUMNS =
  "id, team_id, name, description, avatar_url, instructions, language, model_provider, model, temperature, visibility, gallery_listed, suggested_questions, show_powered_by, theme, created_at, updated_at";
