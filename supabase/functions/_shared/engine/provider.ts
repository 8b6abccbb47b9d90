// Stage 3: choose the provider. The bot's named provider with the team's key (used whole: its
// key with its base URL), else the platform's key (PARLEY_<PROVIDER>_API_KEY, only ever sent to
// the platform's or the vendor's URL), else the extractive default that needs no model.
import type { Db } from "../clients.ts";
import { must } from "../db.ts";
import { DEFAULT_MODELS, envBaseUrl, PROVIDERS, type ProviderName } from "../providers/index.ts";
import type { EngineBot } from "./bot.ts";

export type ProviderChoice =
  | { kind: "extractive" }
  | {
    kind: "model";
    provider: ProviderName;
    model: string;
    apiKey: string | null | undefined;
    /** A team's own base URL (fetched like any user-given address), or null for the platform's/vendor's. */
    teamBaseUrl: string | null;
  };

function namedProvider(name: string): ProviderName | null {
  return (PROVIDERS as string[]).includes(name) ? (name as ProviderName) : null;
}

export async function chooseProvider(service: Db, bot: EngineBot): Promise<ProviderChoice> {
  const named = namedProvider(bot.model_provider);
  if (!named) return { kind: "extractive" };
  const key = must(
    await service
      .from("team_provider_keys")
      .select("api_key, base_url")
      .eq("team_id", bot.team_id)
      .eq("provider", named)
      .maybeSingle(),
    "provider key",
  );
  const platformKey = Deno.env.get(`PARLEY_${named.toUpperCase()}_API_KEY`);
  if (!key && !platformKey && !(named === "openai_compatible" && envBaseUrl(named))) return { kind: "extractive" };
  return {
    kind: "model",
    provider: named,
    model: bot.model || DEFAULT_MODELS[named],
    apiKey: key ? key.api_key : platformKey,
    teamBaseUrl: key?.base_url ?? null,
  };
}
