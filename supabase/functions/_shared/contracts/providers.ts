// The model providers, listed once for the functions and the app (the database's checks on
// team_provider_keys.provider and bots.model_provider allow exactly these).

/** Providers a team stores an API key (and base URL) for (team_provider_keys.provider). */
export const KEY_PROVIDERS = ["openai", "anthropic", "google", "mistral", "groq", "openai_compatible"] as const;
export type KeyProvider = (typeof KEY_PROVIDERS)[number];

/** What a bot answers with (bots.model_provider): the built-in extractive responder or a keyed provider. */
export const MODEL_PROVIDERS = ["extractive", ...KEY_PROVIDERS] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];
