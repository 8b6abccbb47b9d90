import { describe, expect, it } from "vitest";
import { leadsCsv } from "../src/features/powerUps/LeadsList";

describe("leads CSV", () => {
  it("quotes commas, quotes and line breaks, and defuses spreadsheet formulas", () => {
    const csv = leadsCsv([
      { id: "1", chat_id: null, power_up_id: null, created_at: "2026-11-23T10:00:00Z", fields: { name: "Vera, V.", email: "v@x.io", message: 'He said "hi"\nbye' } },
      { id: "2", chat_id: null, power_up_id: null, created_at: "2026-11-23T11:00:00Z", fields: { name: "=HYPERLINK(1)", company: "+Acme" } },
    ]);
    expect(csv.split("\r\n")).toEqual([
      "created_at,name,email,phone,company,message",
      '2026-11-23T10:00:00Z,"Vera, V.",v@x.io,,,"He said ""hi""\nbye"',
      "2026-11-23T11:00:00Z,'=HYPERLINK(1),,,'+Acme,",
    ]);
  });

  it("defuses formulas behind a tab or a carriage return too (OWASP's list)", () => {
    const csv = leadsCsv([
      { id: "3", chat_id: null, power_up_id: null, created_at: "2026-11-23T12:00:00Z", fields: { name: "\t=HYPERLINK(1)", company: "\r=1+1" } },
    ]);
    expect(csv.split("\r\n")[1]).toBe("2026-11-23T12:00:00Z,'\t=HYPERLINK(1),,,\"'\r=1+1\",");
  });
});
