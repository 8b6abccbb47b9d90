// The templates of /power-ups/new in the owner's interface language: every text a person reads
// comes from that language's messages (through react-intl, as the page does), in all ten.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createIntl } from "react-intl";
import { LOCALES } from "../src/i18n/locales";
import { freeName, template, TEMPLATE_IDS } from "../src/features/powerUps/templates";

const dir = path.join(__dirname, "..", "src", "i18n", "messages", "powerUps");
const read = (code: string) => JSON.parse(fs.readFileSync(path.join(dir, `${code}.json`), "utf8")) as Record<string, string>;

function templatesIn(code: string) {
  const messages = read(code);
  const lang = LOCALES.find((l) => l.code === code)!.lang;
  const intl = createIntl({ locale: lang, messages, onError: (e) => { throw e; } });
  return TEMPLATE_IDS.map((id) => template(id, (m) => intl.formatMessage({ id: m })));
}

/** What a person reads in a template (names, URLs and settings are the same in every language). */
const readable = (t: ReturnType<typeof template>) => [t.label ?? "", t.description ?? "", ...(t.example_phrases ?? []), ...Object.values(t.settings ?? {}).filter((v): v is string => typeof v === "string" && !/^https?:|^GET$/.test(v))];

describe("power-up templates", () => {
  const english = templatesIn("en");

  it("are complete in English: labels, descriptions, two example phrases, the button and the handoff sentence", () => {
    const [order, lead, booking, handoff] = english;
    expect(order).toMatchObject({ type: "http", name: "lookup_order", label: "Looked up your order", example_phrases: ["Where is my order?", "order status"] });
    expect(lead).toMatchObject({ type: "lead", name: "contact_sales", label: "Contact sales", example_phrases: ["I want to talk to sales", "Can someone contact me?"] });
    expect(booking!.settings).toMatchObject({ link_label: "Book a meeting", link_url: "https://cal.example.com/you" });
    expect(handoff!.settings?.handoff_text).toBe("I have asked our team to join. Someone will answer here within one business day.");
  });

  for (const { code } of LOCALES.filter((l) => l.code !== "en")) {
    it(`follow the interface language: ${code}`, () => {
      const local = templatesIn(code);
      local.forEach((t, i) => {
        const en = english[i]!;
        // Same power-up, other words.
        expect({ type: t.type, name: t.name }).toEqual({ type: en.type, name: en.name });
        expect(t.example_phrases).toHaveLength(en.example_phrases?.length ?? -1);
        for (const [j, text] of readable(t).entries()) {
          expect(text.trim().length > 0 || readable(en)[j] === "").toBe(true);
          if (readable(en)[j]) expect(text, `${code} ${t.name}: "${text}" is the English text`).not.toBe(readable(en)[j]);
        }
      });
      const order = local[0]!.settings?.parameters as { properties: { order_id: { description: string } } };
      expect(order.properties.order_id.description).toBe(read(code)["powerUps.template.order.param"]);
    });
  }

  it("get a free name when the bot has one already", () => {
    expect(freeName("contact_sales", ["talk_to_human"])).toBe("contact_sales");
    expect(freeName("contact_sales", ["contact_sales", "contact_sales_2"])).toBe("contact_sales_3");
  });
});
