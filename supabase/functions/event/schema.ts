// The accepted shape of an analytics event. Plausible's short keys (n, u, d, r,
// w, h, p, $) are accepted as well as the long ones, so its tracker script can
// post here unchanged. Free-text fields are cut to sane lengths; structure that
// is wrong (types, too many props) is refused.
import { z } from "npm:zod@3";
import { cutText } from "../_shared/http.ts";

export const MAX_BODY_BYTES = 8 * 1024;
const MAX_URL = 2048;
const MAX_PROPS = 30;
const MAX_PROP_KEY = 100;
const MAX_PROP_VALUE = 500;

// Cut without splitting a surrogate pair (half of one cannot be stored).
const cut = (max: number) => z.string().transform((s) => cutText(s, max));

const propValue = z.union([
  z.string().transform((s) => cutText(s, MAX_PROP_VALUE)),
  z.number().finite(),
  z.boolean(),
  z.null(),
]);

// Plausible sends props as a JSON string; accept an object or such a string.
const props = z
  .preprocess(
    (v) => {
      if (typeof v !== "string") return v;
      try {
        return JSON.parse(v);
      } catch {
        return v;
      }
    },
    z.record(z.string().min(1).max(MAX_PROP_KEY), propValue),
  )
  .refine((p) => Object.keys(p).length <= MAX_PROPS, {
    message: `At most ${MAX_PROPS} props`,
  });

const revenue = z.object({
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, "An ISO 4217 currency code, e.g. EUR"),
  amount: z
    .union([z.number().finite(), z.string().regex(/^-?\d{1,12}(\.\d{1,6})?$/)])
    .transform(String),
});

export const eventSchema = z
  .object({
    name: z.string().trim().min(1).max(120),
    url: cut(MAX_URL).pipe(
      z
        .string()
        .url()
        .regex(/^https?:\/\//i, "An http(s) URL"),
    ),
    domain: cut(255).optional(),
    referrer: cut(MAX_URL).nullish(),
    width: z.number().int().min(0).max(100_000).nullish(),
    hash_mode: z
      .union([z.boolean(), z.literal(0), z.literal(1)])
      .transform(Boolean)
      .optional(),
    props: props.optional(),
    revenue: revenue.nullish(),
  })
  .strip();

export type EventInput = z.infer<typeof eventSchema>;

const shortKeys: Record<string, string> = {
  n: "name",
  u: "url",
  d: "domain",
  r: "referrer",
  w: "width",
  h: "hash_mode",
  p: "props",
  $: "revenue",
};

/** Maps Plausible's short keys to ours; a long key wins over a short one. */
export function normalizeKeys(body: unknown): unknown {
  if (!body || typeof body !== "object" || Array.isArray(body)) return body;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    const long = shortKeys[k];
    if (long) {
      if (!(long in body)) out[long] = v;
    } else {
      out[k] = v;
    }
  }
  return out;
}

/** The row to insert: domain defaults to the URL's host. */
export function toRow(e: EventInput, userId: string | null) {
  return {
    name: e.name,
    url: e.url,
    domain: (e.domain ?? new URL(e.url).hostname).slice(0, 255),
    referrer: e.referrer ?? null,
    width: e.width ?? null,
    hash_mode: e.hash_mode ?? false,
    props: e.props ?? {},
    revenue: e.revenue ?? null,
    user_id: userId,
  };
}
