// The caller's user id from the (already verified) access token. The gateway
// verifies the JWT (verify_jwt = true) and PostgREST verifies it again on every
// query the function makes with it, so decoding here only saves a round trip.
import { bearerToken, HttpError } from "../_shared/http.ts";

export function callerId(req: Request): string {
  const token = bearerToken(req);
  let claims: { sub?: unknown; role?: unknown } = {};
  try {
    const payload = token?.split(".")[1] ?? "";
    claims = JSON.parse(
      atob(
        payload
          .replace(/-/g, "+")
          .replace(/_/g, "/")
          .padEnd(Math.ceil(payload.length / 4) * 4, "="),
      ),
    );
  } catch {
    claims = {};
  }
  if (claims.role !== "authenticated" || typeof claims.sub !== "string") {
    throw new HttpError(401, "session_required", "Sign in (an anonymous session is enough) to chat");
  }
  return claims.sub;
}
