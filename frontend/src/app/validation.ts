// Validation rules a route may declare on its params. A failing rule makes the page a
// 404 "Page Not Found: {path}" before any guard or data loading runs.
// Each rule is one regular expression (source, no flags) so that the build can hand the same
// rules to the app server in the route manifest (see entry-server.tsx routeManifest()).
const SLUG = "[a-z0-9]+(?:-[a-z0-9]+)*";
/** A path segment that is not empty and not a dot-segment ("." or ".."). */
const SEGMENT = "(?!\\.{1,2}(?:/|$))[^/]+";

export const VALIDATION_PATTERNS = {
  uuid: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
  slug: `^${SLUG}$`,
  /** Several path segments, each a slug (catch-all pages). */
  slugPath: `^${SLUG}(?:/${SLUG})*$`,
  /** Any number (at least one) of non-empty segments without dot-segments, at most 512 characters. */
  segments: `^(?=[^]{1,512}$)${SEGMENT}(?:/${SEGMENT})*$`,
} as const;

export type ValidationRuleName = keyof typeof VALIDATION_PATTERNS;

export const VALIDATION_RULES = Object.fromEntries(
  Object.entries(VALIDATION_PATTERNS).map(([name, source]) => {
    const re = new RegExp(source);
    return [name, (v: string) => re.test(v)];
  }),
) as Record<ValidationRuleName, (v: string) => boolean>;

/** Param name → rule. "*" is react-router's splat param. */
export type ParamRules = Record<string, ValidationRuleName>;

export function validateParams(rules: ParamRules | undefined, params: Record<string, string | undefined>): boolean {
  if (!rules) return true;
  for (const [name, rule] of Object.entries(rules)) {
    const value = params[name];
    if (value === undefined || !VALIDATION_RULES[rule](value)) return false;
  }
  return true;
}
