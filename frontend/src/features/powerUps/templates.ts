// The starting points of /power-ups/new: each a complete power-up the owner then adjusts. Texts
// people read (label, description, example phrases, the button's label, the handoff sentence)
// come in the owner's interface language (messages powerUps.template.<id>.*); names, URLs and
// settings are the same in every language.
import type { PowerUpInput } from "../../data/powerUps/power-up-save-mutation";

export type TemplateId = "order" | "lead" | "booking" | "handoff" | "blank";
export const TEMPLATE_IDS: readonly TemplateId[] = ["order", "lead", "booking", "handoff", "blank"];

/** A message of the interface language by id (react-intl's formatMessage). */
export type Translate = (id: string) => string;

/** A new power-up: always named (the settings page edits everything else). */
export type Template = Omit<PowerUpInput, "botId"> & { name: string };

export function template(id: TemplateId, t: Translate): Template {
  const text = (key: string) => t(`powerUps.template.${id}.${key}`);
  const phrases = () => text("phrases").split("\n").map((p) => p.trim()).filter(Boolean);
  switch (id) {
    case "order":
      return {
        type: "http", name: "lookup_order", label: text("label"), description: text("description"), example_phrases: phrases(),
        settings: {
          method: "GET", url: "https://api.example.com/orders/{{order_id}}",
          headers: { Authorization: "Bearer {{secret.API_KEY}}" },
          parameters: { type: "object", properties: { order_id: { type: "string", description: text("param") } }, required: ["order_id"] },
          response_path: "", max_chars: 4000, timeout_ms: 10000,
        },
      };
    case "lead":
      return {
        type: "lead", name: "contact_sales", label: text("label"), description: text("description"), example_phrases: phrases(),
        settings: { fields: ["name", "email", "company", "message"], required: ["email"], intro: "" },
      };
    case "booking":
      return {
        type: "link", name: "book_meeting", label: text("label"), description: text("description"), example_phrases: phrases(),
        settings: { link_label: text("linkLabel"), link_url: "https://cal.example.com/you" },
      };
    case "handoff":
      return {
        type: "handoff", name: "talk_to_human", label: text("label"), description: text("description"), example_phrases: phrases(),
        settings: { handoff_text: text("sentence") },
      };
    case "blank":
      return {
        type: "http", name: "my_action", label: "", description: "", example_phrases: [],
        settings: { method: "GET", url: "https://", headers: {}, parameters: { type: "object", properties: {} }, max_chars: 4000, timeout_ms: 10000 },
      };
  }
}

/** `name`, or `name_2`, `name_3`, ... when the bot already has a power-up of that name. */
export function freeName(name: string, taken: readonly string[]): string {
  const used = new Set(taken);
  if (!used.has(name)) return name;
  for (let n = 2; ; n++) if (!used.has(`${name}_${n}`)) return `${name}_${n}`;
}
