import { describe, expect, it } from "vitest";
import { findRedirect, redirectRules } from "../src/app/redirects";

describe("redirect table", () => {
  it("redirects internal targets in the visitor's language", () => {
    expect(findRedirect("/login")).toEqual({ to: "/app/auth/login", external: false });
    expect(findRedirect("/de/login")).toEqual({ to: "/de/app/auth/login", external: false });
    expect(findRedirect("/jp/app/")).toEqual({ to: "/jp/app/bots", external: false });
    expect(findRedirect("/de/app/conversations/")).toEqual({ to: "/de/app/conversations/all", external: false });
  });
  it("marks external targets for a full page load", () => {
    const r = findRedirect("/fr/docs/self-hosting/supabase");
    expect(r).toEqual({ to: "https://supabase.com/docs/guides/self-hosting", external: true });
  });
  it("returns null when nothing matches", () => {
    expect(findRedirect("/faq")).toBeNull();
    expect(findRedirect("/loginx")).toBeNull();
  });
  it("supports prefix rules", () => {
    const rules = [{ from: "/old/**", to: "/new/**" }, { from: "/gone/**", to: "/" }];
    expect(findRedirect("/el/old/a/b", rules)).toEqual({ to: "/el/new/a/b", external: false });
    expect(findRedirect("/gone/x", rules)).toEqual({ to: "/", external: false });
    expect(findRedirect("/older", rules)).toBeNull();
  });
  it("has no rule that points at itself", () => {
    for (const r of redirectRules) expect(r.to).not.toBe(r.from);
  });
});
