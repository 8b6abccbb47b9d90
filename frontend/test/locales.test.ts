import { describe, expect, it } from "vitest";
import { detectLocale, langOf, localizePath, LOCALE_COOKIE, splitLocale, switchLocalePath } from "../src/i18n/locales";
import { rememberLocale } from "../src/lib/locale-cookie";
import { parseCookies, serializeCookie } from "../src/lib/cookies";

describe("languages", () => {
  it("reads the language from the URL prefix", () => {
    expect(splitLocale("/")).toEqual({ locale: "en", path: "/" });
    expect(splitLocale("/faq")).toEqual({ locale: "en", path: "/faq" });
    expect(splitLocale("/de")).toEqual({ locale: "de", path: "/" });
    expect(splitLocale("/jp/blog/x")).toEqual({ locale: "jp", path: "/blog/x" });
    expect(splitLocale("/en/faq")).toEqual({ locale: "en", path: "/en/faq" }); // English has no prefix
    expect(splitLocale("/design")).toEqual({ locale: "en", path: "/design" });
    expect(splitLocale("/xx/faq").locale).toBe("en");
  });
  it("maps jp to ja and cn to zh", () => {
    expect(langOf("jp")).toBe("ja");
    expect(langOf("cn")).toBe("zh");
    expect(langOf("el")).toBe("el");
  });
  it("localizes paths and keeps the page when switching", () => {
    expect(localizePath("/", "en")).toBe("/");
    expect(localizePath("/", "nl")).toBe("/nl");
    expect(localizePath("/faq", "pl")).toBe("/pl/faq");
    expect(switchLocalePath("/de/blog/x", "?a=1", "#top", "en")).toBe("/blog/x?a=1#top");
    expect(switchLocalePath("/blog/x", "", "", "cn")).toBe("/cn/blog/x");
    expect(switchLocalePath("/es", "", "", "fr")).toBe("/fr");
  });
  it("detects the language for the root: cookie, then browser, then English", () => {
    expect(detectLocale("de", ["fr-FR"])).toBe("de");
    expect(detectLocale(undefined, ["ja-JP", "en"])).toBe("jp");
    expect(detectLocale(undefined, ["zh-CN"])).toBe("cn");
    expect(detectLocale("xx", ["sv-SE", "nl-BE"])).toBe("nl");
    expect(detectLocale(undefined, ["sv"])).toBe("en");
  });
  it("remembers the choice in a cookie for 365 days, SameSite=Lax", () => {
    expect(serializeCookie(LOCALE_COOKIE, "de", { maxAge: 365 * 86400, sameSite: "Lax" })).toBe("parley_locale=de; Path=/; SameSite=Lax; Max-Age=31536000");
    rememberLocale("el");
    expect(parseCookies(document.cookie)[LOCALE_COOKIE]).toBe("el");
  });
});
