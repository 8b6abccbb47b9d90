// How the session cookies are written (@supabase/ssr's cookie options): by the app's client
// (lib/supabase.ts) and the visitor's lean one (lib/lean-auth.ts) alike; in a frame on another
// site, where these cookies do not stick, the lean one keeps the session where the frame may
// (lib/frame-storage.ts: its localStorage, or partitioned cookies).
export const SESSION_COOKIE_MAX_AGE = 400 * 24 * 60 * 60;
export const SESSION_COOKIE_OPTIONS = { path: "/", sameSite: "lax", httpOnly: false, maxAge: SESSION_COOKIE_MAX_AGE } as const;
