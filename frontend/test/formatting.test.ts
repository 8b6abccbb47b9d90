// Dates, numbers and plurals follow the page's language (react-intl with the locale's
// BCP 47 tag: jp → ja, cn → zh).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createIntl } from "react-intl";
import { langOf, type LocaleCode } from "../src/i18n/locales";

function intlFor(code: LocaleCode) {
  const messages = JSON.parse(fs.readFileSync(path.resolve(__dirname, `../src/i18n/messages/${code}.json`), "utf8"));
  return createIntl({ locale: langOf(code), messages, defaultLocale: "en" });
}

const count = (code: LocaleCode, n: number) => intlFor(code).formatMessage({ id: "content.count" }, { count: n });

describe("per-locale formatting", () => {
  it("plurals", () => {
    expect(count("en", 1)).toBe("1 article");
    expect(count("en", 3)).toBe("3 articles");
    expect(count("pl", 1)).toBe("1 artykuł");
    expect(count("pl", 3)).toBe("3 artykuły");
    expect(count("pl", 5)).toBe("5 artykułów");
    expect(count("jp", 2)).toBe("2件の記事");
  });
  it("numbers", () => {
    expect(intlFor("de").formatNumber(1234.5)).toBe("1.234,5");
    expect(intlFor("fr").formatNumber(1234.5)).toMatch(/^1\s234,5$/);
    expect(intlFor("en").formatNumber(1234.5)).toBe("1,234.5");
  });
  it("dates", () => {
    const d = new Date("2026-10-02T12:00:00Z");
    expect(intlFor("de").formatDate(d, { dateStyle: "long", timeZone: "UTC" })).toBe("2. Oktober 2026");
    expect(intlFor("en").formatDate(d, { dateStyle: "long", timeZone: "UTC" })).toBe("October 2, 2026");
    expect(intlFor("cn").formatDate(d, { dateStyle: "long", timeZone: "UTC" })).toBe("2026年10月2日");
  });
});
