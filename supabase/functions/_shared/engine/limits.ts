// Stage 0: the caller's own limits, before anything is stored. A visitor is counted per user
// and then per address; a channel's person per external user. The bot's shared per-minute
// budget is not here: open_chat_turn spends it only for a turn that passed these limits and
// the access check (so no stranger can use it up for the owner).
import { enforceRateLimits, ipKey, limitFromEnv } from "../rate-limit.ts";
import type { Conversation } from "./types.ts";

export async function enforceCallerLimits(botId: string, conversation: Conversation): Promise<void> {
  const perMinute = (name: string, fallback: number) => ({ max: limitFromEnv(name, fallback), windowSeconds: 60 });
  if (conversation.kind === "visitor") {
    await enforceRateLimits([
      { key: `chat:user:${conversation.userId}`, ...perMinute("PARLEY_CHAT_USER_LIMIT", 20) },
      { key: `chat:ip:${ipKey(conversation.ip)}`, ...perMinute("PARLEY_CHAT_IP_LIMIT", 120) },
    ]);
  } else if (conversation.kind === "channel") {
    await enforceRateLimits([
      {
        key: `chat:${conversation.channel}:${botId}:${conversation.externalUserId.slice(0, 200)}`,
        ...perMinute("PARLEY_CHAT_USER_LIMIT", 20),
      },
    ]);
  }
}
