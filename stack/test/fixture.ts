import path from "node:path";
import { fileURLToPath } from "node:url";

/** The fixture project the test stack serves (its own supabase/ folder). */
export const fixtureDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixture");
