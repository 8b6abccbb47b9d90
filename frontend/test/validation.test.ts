import { describe, expect, it } from "vitest";
import { validateParams, VALIDATION_RULES } from "../src/app/validation";

describe("validation rules", () => {
  it("uuid", () => {
    expect(VALIDATION_RULES.uuid("6f1c1a4e-9a56-4e55-8a39-0d3c3c1d9a11")).toBe(true);
    expect(VALIDATION_RULES.uuid("123")).toBe(false);
    expect(VALIDATION_RULES.uuid("6f1c1a4e-9a56-4e55-8a39-0d3c3c1d9a11' or 1=1")).toBe(false);
  });
  it("slug and slugPath", () => {
    expect(VALIDATION_RULES.slug("getting-started")).toBe(true);
    expect(VALIDATION_RULES.slug("Getting_Started")).toBe(false);
    expect(VALIDATION_RULES.slug("a--b")).toBe(false);
    expect(VALIDATION_RULES.slugPath("company/about")).toBe(true);
    expect(VALIDATION_RULES.slugPath("company//about")).toBe(false);
    expect(VALIDATION_RULES.slugPath("../etc")).toBe(false);
  });
  it("segments", () => {
    expect(VALIDATION_RULES.segments("a/b/c")).toBe(true);
    expect(VALIDATION_RULES.segments("a/../b")).toBe(false);
    expect(VALIDATION_RULES.segments("")).toBe(false);
    expect(VALIDATION_RULES.segments("x".repeat(600))).toBe(false);
  });
  it("validateParams checks every declared param and passes without rules", () => {
    expect(validateParams(undefined, {})).toBe(true);
    expect(validateParams({ botId: "uuid" }, { botId: "nope" })).toBe(false);
    expect(validateParams({ botId: "uuid" }, {})).toBe(false);
    expect(validateParams({ botId: "uuid", slug: "slug" }, { botId: "6f1c1a4e-9a56-4e55-8a39-0d3c3c1d9a11", slug: "ok" })).toBe(true);
  });
});
