// Parley.identify(): what the host page says about the visitor is cleaned before it is kept,
// fills the lead form's matching fields, and is shown to the team as text, never as HTML.
import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import { IntlProvider } from "react-intl";
import { sanitizeIdentity } from "../src/features/chat/identity";
import { prefillFromIdentity } from "../src/features/chat/LeadForm";
import { VisitorIdentity } from "../src/features/conversations/VisitorIdentity";
import visitorEn from "../src/i18n/messages/chatVisitor/en.json";

describe("sanitizeIdentity", () => {
  it("keeps plain keys with short scalar values", () => {
    expect(sanitizeIdentity({ name: "  Ada  ", email: "ada@example.com", seats: 3, vip: true })).toEqual({ name: "Ada", email: "ada@example.com", seats: 3, vip: true });
  });
  it("drops what cannot be shown or stored safely", () => {
    const out = sanitizeIdentity({
      "<img src=x>": "x",
      nested: { a: 1 },
      list: [1, 2],
      nothing: null,
      empty: "   ",
      infinite: Number.POSITIVE_INFINITY,
      long: "a".repeat(500),
      control: "line\nbreak\u0000",
    });
    expect(out).toEqual({ long: "a".repeat(200), control: "line break" });
  });
  it("keeps at most 20 keys and says null for nothing usable", () => {
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, i]));
    expect(Object.keys(sanitizeIdentity(many) ?? {})).toHaveLength(20);
    expect(sanitizeIdentity(null)).toBeNull();
    expect(sanitizeIdentity("ada")).toBeNull();
    expect(sanitizeIdentity(["ada"])).toBeNull();
    expect(sanitizeIdentity({})).toBeNull();
  });
});

describe("the lead form's prefill", () => {
  it("fills the fields the site named, never the message", () => {
    expect(prefillFromIdentity(["name", "email", "phone", "message"], { name: "Ada", email: "ada@example.com", message: "hi", company: "X" })).toEqual({ name: "Ada", email: "ada@example.com" });
    expect(prefillFromIdentity(["name"], null)).toEqual({});
  });
});

describe("VisitorIdentity", () => {
  it("shows the site's fields as text with a note that they are not verified", () => {
    render(
      <IntlProvider locale="en" messages={visitorEn}>
        <VisitorIdentity visitor={{ name: "<b>Ada</b>", vip: true }} />
      </IntlProvider>,
    );
    expect(screen.getByRole("region", { name: "Visitor, as the website says" })).toBeTruthy();
    expect(screen.getByText("<b>Ada</b>")).toBeTruthy();
    expect(document.querySelector("b")).toBeNull();
    expect(screen.getByText(/not verified/)).toBeTruthy();
  });
  it("shows nothing without an identity", () => {
    const { container } = render(
      <IntlProvider locale="en" messages={visitorEn}>
        <VisitorIdentity visitor={null} />
      </IntlProvider>,
    );
    expect(container.textContent).toBe("");
  });
});
