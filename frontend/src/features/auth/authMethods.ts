// How a session was opened: the access token's `amr` claim ("invite", "otp", "password",
// "recovery", ...), as Supabase Auth writes it. Read without verifying: it only decides which
// form a page offers; auth itself checks every change.

export function authMethods(accessToken: string | undefined): string[] {
  const payload = accessToken?.split(".")[1];
  if (!payload) return [];
  try {
    const b64 = payload.replace(/-/g, "+").replace(/_/g, "/");
    const claims = JSON.parse(atob(b64.padEnd(Math.ceil(b64.length / 4) * 4, "="))) as { amr?: unknown };
    if (!Array.isArray(claims.amr)) return [];
    return claims.amr.map((a) => (a && typeof a === "object" && typeof (a as { method?: unknown }).method === "string" ? (a as { method: string }).method : "")).filter(Boolean);
  } catch {
    return [];
  }
}
