// Picks the adapter for a bot's provider. Base URL: the team key's base_url,
// else PARLEY_<PROVIDER>_BASE_URL, else the vendor's default (openai_compatible has none:
// without a base URL it refuses with provider_bad_request).
import { anthropicProvider } from "./anthropic.ts";
import { googleProvider } from "./google.ts";
import { groqProvider } from "./groq.ts";
import { mistralProvider } from "./mistral.ts";
import { openAiProvider } from "./openai.ts";
import { KEY_PROVIDERS } from "../contracts/providers.ts";
import { type GenerateEvent, type Provider, type ProviderConfig, ProviderError, type ProviderName } from "./types.ts";

export * from "./types.ts";

export const PROVIDERS: ProviderName[] = [...KEY_PROVIDERS];

/** Default models when a bot names none. */
export const DEFAULT_MODELS: Record<ProviderName, string> = {
  openai: "gpt-4o-mini",
  anthropic: "claude-3-5-haiku-latest",
  google: "gemini-2.0-flash",
  mistral: "mistral-small-latest",
  groq: "llama-3.1-8b-instant",
  openai_compatible: "llama3.2",
};

export function envBaseUrl(provider: ProviderName): string | undefined {
  return Deno.env.get(`PARLEY_${provider.toUpperCase()}_BASE_URL`) || undefined;
}

export function createProvider(config: ProviderConfig): Provider {
  const c = { ...config, baseUrl: config.baseUrl || envBaseUrl(config.provider) };
  switch (c.provider) {
    case "openai":
      return openAiProvider(c);
    case "openai_compatible":
      // No vendor default: without the team's or the platform's base URL there is nothing to call
      // (never a guessed loopback server).
      return c.baseUrl ? openAiProvider(c) : noBaseUrlProvider(c.provider);
    case "anthropic":
      return anthropicProvider(c);
    case "google":
      return googleProvider(c);
    case "mistral":
      return mistralProvider(c);
    case "groq":
      return groqProvider(c);
  }
}

/** A provider that cannot be called: it refuses every request (a provider_bad_request). */
function noBaseUrlProvider(name: ProviderName): Provider {
  return {
    name,
    // eslint-disable-next-line require-yield -- it only refuses
    async *generate(): AsyncGenerator<GenerateEvent> {
      throw new ProviderError(
        "provider_bad_request",
        name,
        null,
        `no base URL: set the team key's base URL or PARLEY_${name.toUpperCase()}_BASE_URL`,
      );
    },
  };
}
