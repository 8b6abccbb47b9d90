// Source titles: "Document › Heading", without repeating the document's title at the head
// of the heading path, with one kind of separator.
import assert from "node:assert/strict";
import { passageTitle } from "./prompt.ts";
import type { Passage } from "../providers/extractive.ts";

const p = (document_title: string | null, heading_path: string | null) => ({ document_title, heading_path }) as unknown as Passage;

Deno.test("passageTitle drops the document's own title from the head of the heading path", () => {
  assert.equal(
    passageTitle(p("Sharing notes and working together", "Sharing notes and working together > Share a note or notebook")),
    "Sharing notes and working together › Share a note or notebook",
  );
  assert.equal(passageTitle(p("Billing", "billing > Invoices > Refunds")), "Billing › Invoices › Refunds");
  assert.equal(passageTitle(p("Passwords", "Account > Passwords")), "Passwords › Account › Passwords");
  assert.equal(passageTitle(p("Passwords", "Passwords")), "Passwords");
  assert.equal(passageTitle(p("Passwords", null)), "Passwords");
  assert.equal(passageTitle(p(null, "Account > Passwords")), "Account › Passwords");
  assert.equal(passageTitle(p("", "")), "");
});
