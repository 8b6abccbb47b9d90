// The app's view of the one generated Database type (supabase/functions/_shared/database.types.ts,
// written by `npm run gen:types`, shared with the edge functions). Row and enum types come from
// here, never written by hand: a migration that changes a column changes them too.
import type { Database, Enums, Tables } from "@shared/database.types.ts";
import { Constants } from "@shared/database.types.ts";

export type { Database, Enums, Json, Tables, TablesInsert, TablesUpdate } from "@shared/database.types.ts";

/** The return row of a set-returning RPC (`get_public_bot`, `list_team_provider_keys`, ...). */
export type RpcRow<Name extends keyof Database["public"]["Functions"]> = Database["public"]["Functions"][Name]["Returns"] extends (infer R)[]
  ? R
  : Database["public"]["Functions"][Name]["Returns"];

/** Every value of a Postgres enum, in the order the migration lists them. */
export const ENUM_VALUES = Constants.public.Enums;

export type TeamRole = Enums<"team_role">;
export type BotRow = Tables<"bots">;
