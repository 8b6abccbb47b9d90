// The starting points of /power-ups/new: each a complete power-up the owner then adjusts.
import type { PowerUpInput } from "../../data/powerUps/power-up-save-mutation";

export type TemplateId = "order" | "lead" | "booking" | "handoff" | "blank";
export const TEMPLATE_IDS: readonly TemplateId[] = ["order", "lead", "booking", "handoff", "blank"];

export function template(id: TemplateId): Omit<PowerUpInput, "botId"> {
  switch (id) {
    case "order":
      return {
        type: "http", name: "lookup_order", label: "Looked up your order",
        description: "Look up the status of an order by its number.",
        example_phrases: ["Where is my order?", "order status"],
        settings: {
          method: "GET", url: "https://api.example.com/orders/{{order_id}}",
          headers: { Authorization: "Bearer {{secret.API_KEY}}" },
          parameters: { type: "object", properties: { order_id: { type: "string", description: "The order number" } }, required: ["order_id"] },
          response_path: "", max_chars: 4000, timeout_ms: 10000,
        },
      };
    case "lead":
      return {
        type: "lead", name: "contact_sales", label: "Contact sales",
        description: "Collect contact details when the visitor wants to be contacted.",
        example_phrases: ["I want to talk to sales", "Can someone contact me?"],
        settings: { fields: ["name", "email", "company", "message"], required: ["email"], intro: "" },
      };
    case "booking":
      return {
        type: "link", name: "book_meeting", label: "Book a meeting",
        description: "Offer the booking page when the visitor wants a meeting or a demo.",
        example_phrases: ["Can I book a demo?", "schedule a meeting"],
        settings: { link_label: "Book a meeting", link_url: "https://cal.example.com/you" },
      };
    case "handoff":
      return {
        type: "handoff", name: "talk_to_human", label: "Talk to a person",
        description: "Hand the conversation to the team when the visitor asks for a person.",
        example_phrases: ["I want to talk to a human", "Can I speak to a person?"],
        settings: { handoff_text: "I have asked our team to join. Someone will answer here within one business day." },
      };
    case "blank":
      return {
        type: "http", name: "my_action", label: "", description: "", example_phrases: [],
        settings: { method: "GET", url: "https://", headers: {}, parameters: { type: "object", properties: {} }, max_chars: 4000, timeout_ms: 10000 },
      };
  }
}
