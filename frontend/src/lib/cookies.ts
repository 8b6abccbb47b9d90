// Small cookie helpers. document.cookie is the only store every page (and the server
// prerender, which has none) agrees on; values are URI-encoded.
export interface CookieOptions {
  maxAge?: number; // seconds
  path?: string;
  sameSite?: "Lax" | "Strict" | "None";
  secure?: boolean;
}

export function parseCookies(header: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || name in out) continue;
    try {
      out[name] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      out[name] = part.slice(eq + 1).trim();
    }
  }
  return out;
}

export function serializeCookie(name: string, value: string, opts: CookieOptions = {}): string {
  let s = `${name}=${encodeURIComponent(value)}; Path=${opts.path ?? "/"}; SameSite=${opts.sameSite ?? "Lax"}`;
  if (opts.maxAge !== undefined) s += `; Max-Age=${Math.floor(opts.maxAge)}`;
  if (opts.secure) s += "; Secure";
  return s;
}

export function readCookie(name: string): string | undefined {
  if (typeof document === "undefined") return undefined;
  return parseCookies(document.cookie)[name];
}

export function writeCookie(name: string, value: string, opts: CookieOptions = {}): void {
  if (typeof document === "undefined") return;
  const secure = opts.secure ?? (typeof location !== "undefined" && location.protocol === "https:");
  document.cookie = serializeCookie(name, value, { ...opts, secure });
}
