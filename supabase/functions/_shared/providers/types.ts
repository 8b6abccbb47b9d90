// One interface for every model provider: a system prompt and turns in, a
// stream of tokens and then the usage out.

import type { KeyProvider } from "../contracts/providers.ts";

/** A keyed model provider (the one list: contracts/providers.ts). */
export type ProviderName = KeyProvider;

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
  /** Only on assistant turns: the tools the model called in this step (tool.ts). */
  toolCalls?: ToolCall[];
}

/** A tool the model may call: a name, what it is for, and a JSON Schema of its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  /** A JSON Schema with `type: "object"`. */
  parameters: Record<string, unknown>;
}

/** A call the model made; `arguments` is the parsed JSON object (or null when the model sent invalid JSON). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown> | null;
  /** The raw argument text as the model streamed it. */
  rawArguments: string;
}

/** The answer to a tool call, sent back to the model in the vendor's format. */
export interface ToolResultTurn {
  role: "tool";
  callId: string;
  name: string;
  content: string;
  isError: boolean;
}

export type ConversationTurn = Turn | ToolResultTurn;

export interface GenerateInput {
  system: string;
  /** Tool results (role "tool") follow the assistant turn whose toolCalls they answer. */
  messages: ConversationTurn[];
  /** Tools the model may call (none: a plain answer). */
  tools?: ToolSpec[];
  temperature: number;
  model: string;
  signal?: AbortSignal;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
}

export type GenerateEvent =
  | { type: "token"; text: string }
  /** The model asks for a tool; the step ends with `done` and the caller answers with tool results. */
  | { type: "tool_call"; call: ToolCall }
  | { type: "done"; usage: Usage };

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
