// `notion-connect`: connects a Notion workspace to a new data source through Notion's
// OAuth, server-side (connect.ts; README.md).
import { handler } from "../_shared/http.ts";
import { requireVerifiedCaller } from "../_shared/caller.ts";
import { route } from "./connect.ts";

Deno.serve(handler("notion-connect", (req) => route(req), { verifyCaller: requireVerifiedCaller }));
