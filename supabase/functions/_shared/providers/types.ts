// One interface for every model provider: a system prompt and turns in, a
// stream of tokens and then the usage out.

export type ProviderName = "openai" | "anthropic" | "google" | "mistral" | "groq" | "openai_compatible";

export interface ImagePart {
  mime: string;
  /** base64, without a data: prefix */
  data: string;
}

export interface Turn {
  role: "user" | "assistant";
  content: string;
  /** Only on user turns; sent to vision-capable models as image parts. */
  images?: ImagePart[];
}

export interface GenerateInput {
  system: string;
  messages: Turn[];
  temperature: number;
  model: string;
  signal?: AbortSignal;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
}

export type GenerateEvent = { type: "token"; text: string } | { type: "done"; usage: Usage };

export interface Provider {
  readonly name: ProviderName | "extractive";
  generate(input: GenerateInput): AsyncIterable<GenerateEvent>;
}

export interface ProviderConfig {
  provider: ProviderName;
  apiKey?: string | null;
  baseUrl?: string | null;
  /** Per-request timeout in ms (default 60 s). */
  timeoutMs?: number;
  /** Retries on 429/5xx before the first token (default 2). */
  maxRetries?: number;
  /** First backoff step in ms (default 500), doubled each retry; Retry-After wins when given. */
  backoffMs?: number;
  /** The fetch the vendor SDK uses, where it takes one (guard.ts for a team's base URL). */
  fetch?: typeof fetch;
}

export type ProviderErrorCode =
  | "provider_auth"
  | "provider_rate_limited"
  | "provider_unavailable"
  | "provider_bad_request"
  | "provider_timeout"
  | "provider_error";

const visitorMessages: Record<ProviderErrorCode, string> = {
  provider_auth: "The bot's AI provider refused its credentials. Please tell the bot's owner.",
  provider_rate_limited: "The bot is busy right now. Please try again in a moment.",
  provider_unavailable: "The bot's AI provider is unavailable right now. Please try again later.",
  provider_bad_request: "The bot's AI provider could not handle this message.",
  provider_timeout: "The bot took too long to answer. Please try again.",
  provider_error: "The bot could not answer right now. Please try again.",
};

/** A provider failure, with a code and a sentence fit for the visitor (never the vendor's raw text). */
export class ProviderError extends Error {
  readonly visitorMessage: string;
  constructor(
    readonly code: ProviderErrorCode,
    readonly provider: string,
    readonly status: number | null,
    detail: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(`${provider}: ${detail}`);
    this.visitorMessage = visitorMessages[code];
  }
}
