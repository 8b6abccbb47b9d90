import { describe, expect, it } from "vitest";
import { diffWords } from "../src/features/tests/diff";

describe("diffWords", () => {
  it("marks removed words on the left and added words on the right", () => {
    const d = diffWords("Invoices are sent monthly.", "Invoices are sent weekly.");
    expect(d.before).toEqual([{ text: "Invoices are sent ", kind: "same" }, { text: "monthly.", kind: "removed" }]);
    expect(d.after).toEqual([{ text: "Invoices are sent ", kind: "same" }, { text: "weekly.", kind: "added" }]);
  });
  it("treats an empty side as all added", () => {
    expect(diffWords("", "New answer").after).toEqual([{ text: "New answer", kind: "added" }]);
  });
});
