// Validation rules a route may declare on its params. A failing rule makes the page a
// 404 "Page Not Found: {path}" before any guard or data loading runs.
export const VALIDATION_RULES = {
  uuid: (v: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v),
  slug: (v: string) => /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(v),
  /** Several path segments, each a slug (catch-all pages). */
  slugPath: (v: string) => v.split("/").every((s) => /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(s)),
  /** Any number of non-empty segments without dot-segments. */
  segments: (v: string) => v.length > 0 && v.length <= 512 && v.split("/").every((s) => s !== "" && s !== "." && s !== ".."),
} as const;

export type ValidationRuleName = keyof typeof VALIDATION_RULES;
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
