// Liveness of the functions runtime: answers without touching the database.
//   GET (or HEAD, or POST as supabase-js functions.invoke sends) /functions/v1/health-check → 200
//   {ok, function, time}; any other method is 405. No token is needed (config.toml).
import { handler, HttpError, json } from "../_shared/http.ts";

Deno.serve(
  handler("health-check", (req) => {
    if (!["GET", "HEAD", "POST"].includes(req.method)) throw new HttpError(405, "method_not_allowed", "Use GET");
    return json(200, { ok: true, function: "health-check", time: new Date().toISOString() });
  }),
);
