// Channel and power-up types a platform administrator turned off platform-wide
// (public.platform_disabled_features, written through admin_set_feature_enabled). Postgres
// refuses creating or enabling such a type; the receivers use this so channels that were on
// when the type was turned off stop answering too (they answer 403 channel_disabled).
import type { Db } from "./clients.ts";
import { must } from "./db.ts";

export async function isTypeTurnedOff(service: Db, kind: "channel" | "power_up", type: string): Promise<boolean> {
  const rows = must(
    await service.from("platform_disabled_features").select("type").eq("kind", kind).eq("type", type).limit(1),
    "platform_disabled_features",
  );
  return (rows?.length ?? 0) > 0;
}
