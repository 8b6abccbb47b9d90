// A power-up's settings by type, checked with zod wherever they are read (the engine, the test
// console), and the tool the model sees for it. See README.md.
import { z } from "npm:zod@3.25.76";
import type { ToolSpec } from "../providers/types.ts";

export const POWER_UP_TYPES = ["http", "lead", "link", "handoff"] as const;
export type PowerUpType = (typeof POWER_UP_TYPES)[number];
export const LEAD_FIELDS = ["name", "email", "phone", "company", "message"] as const;
export type LeadField = (typeof LEAD_FIELDS)[number];

const jsonSchemaObject = z
  .object({ type: z.literal("object"), properties: z.record(z.record(z.unknown())).default({}), required: z.array(z.string()).optional() })
  .passthrough();

export const httpSettings = z.object({
  method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]).default("GET"),
  /** `https://api.example.com/orders/{{order_id}}`: parameters are URL-encoded into it. */
  url: z.string().min(1).max(2000),
  /** Header values may use `{{secret.NAME}}` (power_up_secrets) and `{{param}}`. */
  headers: z.record(z.string().max(4000)).default({}),
  parameters: jsonSchemaObject.default({ type: "object", properties: {} }),
  /** A JSON body with `{{param}}` placeholders (replaced by the JSON value of the parameter). */
  body: z.string().max(20000).optional(),
  /** Which part of a JSON response the model sees: `data.items.0.status`; empty = all of it. */
  response_path: z.string().max(300).optional(),
  max_chars: z.number().int().min(100).max(20000).default(4000),
  timeout_ms: z.number().int().min(500).max(30000).default(10000),
});
export type HttpSettings = z.infer<typeof httpSettings>;

export const leadSettings = z.object({
  fields: z.array(z.enum(LEAD_FIELDS)).min(1).default(["name", "email"]),
  required: z.array(z.enum(LEAD_FIELDS)).default(["email"]),
  intro: z.string().max(1000).optional(),
});
export const linkSettings = z.object({ link_label: z.string().min(1).max(120), link_url: z.string().url().max(2000) });
export const handoffSettings = z.object({ handoff_text: z.string().min(1).max(1000) });

export interface PowerUpRow {
  id: string;
  bot_id: string;
  type: string;
  name: string;
  label: string;
  description: string;
  enabled: boolean;
  example_phrases: string[];
  settings: unknown;
}

export type PowerUp =
  | (PowerUpRow & { type: "http"; http: HttpSettings })
  | (PowerUpRow & { type: "lead"; lead: z.infer<typeof leadSettings> })
  | (PowerUpRow & { type: "link"; link: z.infer<typeof linkSettings> })
  | (PowerUpRow & { type: "handoff"; handoff: z.infer<typeof handoffSettings> });

/** The power-up with checked settings, or null when they do not parse (it is then skipped). */
export function parsePowerUp(row: PowerUpRow): PowerUp | null {
  const s = row.settings ?? {};
  switch (row.type) {
    case "http": {
      const r = httpSettings.safeParse(s);
      return r.success ? { ...row, type: "http", http: r.data } : null;
    }
    case "lead": {
      const r = leadSettings.safeParse(s);
      return r.success ? { ...row, type: "lead", lead: r.data } : null;
    }
    case "link": {
      const r = linkSettings.safeParse(s);
      return r.success ? { ...row, type: "link", link: r.data } : null;
    }
    case "handoff": {
      const r = handoffSettings.safeParse(s);
      return r.success ? { ...row, type: "handoff", handoff: r.data } : null;
    }
  }
  return null;
}

/** Does it need a model? An http action with parameters does (the extractive default cannot fill them). */
export function needsModel(p: PowerUp): boolean {
  return p.type === "http" && Object.keys(p.http.parameters.properties ?? {}).length > 0;
}

/** The tool the model sees. Lead, link and handoff take no arguments: calling them shows the form, button or handoff. */
export function toolSpec(p: PowerUp): ToolSpec {
  const what = {
    http: "",
    lead: " Calling it shows the visitor a contact form; then tell them briefly to fill it in.",
    link: " Calling it shows the visitor a button to open the link.",
    handoff: " Calling it hands the conversation to a person of the team; the bot then stays quiet.",
  }[p.type];
  return {
    name: p.name,
    description: `${p.description || p.label || p.name}${what}`.slice(0, 1024),
    parameters: p.type === "http" ? p.http.parameters : { type: "object", properties: {} },
  };
}
