// `admin-platform`: what only the functions' environment knows, for the admin dashboard.
//   GET /functions/v1/admin-platform  as a platform administrator
//   → 200 { providers: [{ provider, platform_key, base_url, default_model }] }
// Which providers have a platform key (PARLEY_<PROVIDER>_API_KEY) or base URL
// (PARLEY_<PROVIDER>_BASE_URL) set, as booleans: never a key or an address. The caller is
// checked by the database (is_platform_admin, called with the caller's token): 401 without a
// verified user session (the anon key is not one), 403 for anyone who is not a platform administrator.
import { requireUserId, requireVerifiedCaller } from "../_shared/caller.ts";
import { createUserClient } from "../_shared/clients.ts";
import { dbFailure } from "../_shared/db.ts";
import { handler, HttpError, json } from "../_shared/http.ts";
import { DEFAULT_MODELS, envBaseUrl, PROVIDERS } from "../_shared/providers/index.ts";
import type { AdminPlatformResponse } from "../_shared/contracts/admin-platform.ts";

Deno.serve(
  handler("admin-platform", async (req) => {
    if (req.method !== "GET") throw new HttpError(405, "method_not_allowed", "Use GET");
    await requireUserId(req, "Sign in as a platform administrator.");
    const admin = await createUserClient(req).rpc("is_platform_admin");
    if (admin.error) throw dbFailure(admin.error, "is_platform_admin");
    if (admin.data !== true) throw new HttpError(403, "forbidden", "Only platform administrators may do this.");

    const body: AdminPlatformResponse = {
      providers: PROVIDERS.map((provider) => ({
        provider,
        platform_key: Boolean(Deno.env.get(`PARLEY_${provider.toUpperCase()}_API_KEY`)),
        base_url: Boolean(envBaseUrl(provider)),
        default_model: DEFAULT_MODELS[provider],
      })),
    };
    return json(200, body);
  }, { verifyCaller: requireVerifiedCaller }),
);
