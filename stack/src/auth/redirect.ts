// GoTrue's redirect checks: the site URL's host, or a match of one of
// additional_redirect_urls (globs where `*` stays within a host label or path
// segment and `**` crosses them). Anything else falls back to the site URL.
import type { AuthSettings } from "./settings.ts";

function globToRegExp(glob: string): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        re += ".*";
        i++;
      } else re += "[^./]*";
    } else if (c === "?") re += "[^./]";
    else re += c.replace(/[.+^${}()|[\]\\/]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

export function isRedirectAllowed(settings: AuthSettings, target: string): boolean {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return false;
  }
  if (!/^https?:$/.test(url.protocol) && !/^[a-z][a-z0-9+.-]*:$/.test(url.protocol)) return false;
  if (/^(javascript|data|vbscript|file):$/i.test(url.protocol)) return false;
  try {
    const site = new URL(settings.siteUrl);
    if (site.hostname === url.hostname && /^https?:$/.test(url.protocol)) return true;
  } catch {
    /* a bad site_url allows nothing by host */
  }
  // GoTrue matches the URL without its fragment and with a decoded path.
  const bare = target.split("#")[0]!;
  let decoded: string | null = null;
  try {
    decoded = decodeURI(bare);
  } catch {
    // A malformed escape (e.g. %E0%A4%A) allows nothing beyond the URL as written.
  }
  return settings.additionalRedirectUrls.some((g) => globToRegExp(g).test(bare) || (decoded !== null && globToRegExp(g).test(decoded)));
}

/** The redirect a request asked for, or the site URL when none or not allowed. */
export function redirectTarget(settings: AuthSettings, asked: string | null | undefined): string {
  if (asked && isRedirectAllowed(settings, asked)) return asked;
  return settings.siteUrl;
}

/** Appends a fragment or query to a redirect URL as GoTrue does. */
export function withFragment(base: string, params: Record<string, string>): string {
  const u = base.split("#")[0]!;
  return `${u}#${new URLSearchParams(params).toString()}`;
}

export function withQuery(base: string, params: Record<string, string>): string {
  const url = new URL(base);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}
