// Stage 0, in one round trip (public.start_chat_turn, service role): the caller's own limits,
// before anything is stored (a visitor per user and then per address; a channel's person per
// external user), then the bot's answering settings and power-ups and, for a visitor, the one-time turn pass
// with which open_chat_turn spends the bot's per-minute budget. The budget itself is not spent
// here: open_chat_turn spends it only for a turn that passed these limits and the access check
// (so no stranger can use it up for the owner).
import type { Db } from "../clients.ts";
import { must } from "../db.ts";
import { HttpError, rateLimited } from "../http.ts";
import { ipKey, limitFromEnv, type RateLimit } from "../rate-limit.ts";
import type { PowerUpRow } from "../powerUps/settings.ts";
import type { EngineBot } from "./bot.ts";
import type { Conversation } from "./types.ts";

export interface StartedTurn {
  bot: EngineBot;
  /** The bot's enabled power-ups of types the platform has not turned off, oldest first. */
  powerUps: PowerUpRow[];
  /** Their http actions' secret headers, by power-up id. */
  powerUpSecrets: Record<string, Record<string, string>>;
  /** A visitor's one-time pass for open_chat_turn (null for channels and ephemeral answers). */
  turnPass: string | null;
}

/** The caller's own limits, narrowest first (a caller refused by one spends nothing further down). */
export function callerLimits(botId: string, conversation: Conversation): RateLimit[] {
  const perMinute = (name: string, fallback: number) => ({ max: limitFromEnv(name, fallback), windowSeconds: 60 });
  if (conversation.kind === "visitor") {
    return [
      { key: `chat:user:${conversation.userId}`, ...perMinute("PARLEY_CHAT_USER_LIMIT", 20) },
      { key: `chat:ip:${ipKey(conversation.ip)}`, ...perMinute("PARLEY_CHAT_IP_LIMIT", 120) },
    ];
  }
  if (conversation.kind === "channel") {
    return [
      {
        key: `chat:${conversation.channel}:${botId}:${conversation.externalUserId.slice(0, 200)}`,
        ...perMinute("PARLEY_CHAT_USER_LIMIT", 20),
      },
    ];
  }
  return [];
}

interface SqlBot {
  id: string;
  team_id: string;
  language: string;
  instructions: string;
  model_provider: string;
  model: string;
  temperature: number;
  suggested_questions: string[];
  web_enabled: boolean;
}

/** 429 rate_limited past a limit; 404 bot_not_found for an unknown bot. */
export async function startTurn(service: Db, botId: string, conversation: Conversation): Promise<StartedTurn> {
  const limits = callerLimits(botId, conversation);
  const data = must(
    await service.rpc("start_chat_turn", {
      bot_id: botId,
      limit_keys: limits.map((l) => l.key),
      limit_max: limits.map((l) => l.max),
      limit_windows: limits.map((l) => l.windowSeconds),
      pass_for: conversation.kind === "visitor" ? conversation.userId : undefined,
    }),
    "start chat turn",
  );
  const row = (Array.isArray(data) ? data[0] : data) as
    | {
      allowed: boolean;
      retry_after: number;
      bot: SqlBot | null;
      power_ups: PowerUpRow[] | null;
      power_up_secrets: Record<string, Record<string, string>> | null;
      turn_pass: string | null;
    }
    | undefined;
  if (!row) throw new Error("start_chat_turn returned no row");
  if (!row.allowed) throw rateLimited(row.retry_after > 0 ? row.retry_after : 60);
  if (!row.bot) throw new HttpError(404, "bot_not_found", "Bot not found");
  const { web_enabled, ...settings } = row.bot;
  return {
    bot: { ...settings, webEnabled: web_enabled },
    powerUps: row.power_ups ?? [],
    powerUpSecrets: row.power_up_secrets ?? {},
    turnPass: row.turn_pass,
  };
}
