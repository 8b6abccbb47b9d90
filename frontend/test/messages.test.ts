import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { LOCALE_CODES } from "../src/i18n/locales";
import { isLocaleMessagesFile } from "../scripts/locale-files.mjs";

const dir = path.resolve(__dirname, "../src/i18n/messages");
const areas = fs.readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
const read = (file: string) => JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, string>;
/** A locale's messages as the app loads them: messages/<code>.json plus every messages/<area>/<code>.json. */
const load = (code: string) => {
  const merged: Record<string, string> = { ...read(path.join(dir, `${code}.json`)) };
  for (const area of areas) {
    const file = path.join(dir, area, `${code}.json`);
    if (!fs.existsSync(file)) continue;
    for (const [id, text] of Object.entries(read(file))) {
      if (id in merged) throw new Error(`message id ${id} is defined twice (${area}/${code}.json)`);
      merged[id] = text;
    }
  }
  return merged;
};
const en = load("en");

function argNames(els: MessageFormatElement[], out = new Set<string>()): Set<string> {
  for (const el of els) {
    if (el.type === TYPE.argument || el.type === TYPE.number || el.type === TYPE.date || el.type === TYPE.plural || el.type === TYPE.select) out.add(el.value);
    if (el.type === TYPE.plural || el.type === TYPE.select) for (const o of Object.values(el.options)) argNames(o.value, out);
  }
  return out;
}

describe("locale files", () => {
  it("exist for all ten languages, in every area", () => {
    for (const code of LOCALE_CODES) expect(fs.existsSync(path.join(dir, `${code}.json`)), code).toBe(true);
    for (const area of areas) for (const code of LOCALE_CODES) expect(fs.existsSync(path.join(dir, area, `${code}.json`)), `${area}/${code}`).toBe(true);
  });

  it("define each id once across areas", () => {
    for (const code of LOCALE_CODES) expect(() => load(code), code).not.toThrow();
  });

  for (const code of LOCALE_CODES.filter((c) => c !== "en")) {
    it(`${code}: has exactly English's ids, non-empty, valid ICU with the same arguments`, () => {
      const messages = load(code);
      const missing = Object.keys(en).filter((id) => !(id in messages));
      const extra = Object.keys(messages).filter((id) => !(id in en));
      expect(missing, `missing in ${code}`).toEqual([]);
      expect(extra, `not in English`).toEqual([]);
      for (const [id, text] of Object.entries(messages)) {
        expect(text.trim(), id).not.toBe("");
        expect([...argNames(parse(text))].sort(), `${code} ${id}`).toEqual([...argNames(parse(en[id]!))].sort());
      }
    });
  }

  it("are translated, not copies of English", () => {
    for (const code of LOCALE_CODES.filter((c) => c !== "en")) {
      const messages = load(code);
      const same = Object.keys(en).filter((id) => messages[id] === en[id]).length;
      expect(same / Object.keys(en).length, code).toBeLessThan(0.25);
    }
  });

  it("use descriptive dotted ids", () => {
    for (const id of Object.keys(en)) expect(id).toMatch(/^[a-z][A-Za-z0-9-]*(\.[a-zA-Z0-9-]+)+$/);
  });
});

describe("the build's message compiler", () => {
  // The browser has no ICU parser: a locale file the build does not compile shows its
  // placeholders raw. Every file the app loads must be one the build compiles.
  it("compiles every locale file, in every area folder", () => {
    const files = [...LOCALE_CODES.map((code) => path.join(dir, `${code}.json`)), ...areas.flatMap((area) => LOCALE_CODES.map((code) => path.join(dir, area, `${code}.json`)))].filter((f) => fs.existsSync(f));
    expect(files.length).toBeGreaterThan(LOCALE_CODES.length * 10);
    expect(files.filter((f) => !isLocaleMessagesFile(f))).toEqual([]);
    expect(isLocaleMessagesFile(path.join(dir, "powerUps", "en.json"))).toBe(true);
    expect(isLocaleMessagesFile(path.join(dir, "..", "locales.json"))).toBe(false);
  });
});
