// Server messages never reach the interface in English: every code the functions answer with,
// every ingest job code and every RAISE EXCEPTION of the migrations maps to a message that
// exists in all ten languages.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "@shared/contracts/errors.ts";
import { AppError, ERROR_MESSAGE_IDS, errorMessage, jobErrorMessage } from "../src/lib/errors";
import { LOCALE_CODES } from "../src/i18n/locales";

const dir = path.resolve(__dirname, "../src/i18n/messages");
const catalog = (code: string) => {
  const all: Record<string, string> = JSON.parse(fs.readFileSync(path.join(dir, `${code}.json`), "utf8"));
  for (const area of fs.readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    const file = path.join(dir, area.name, `${code}.json`);
    if (fs.existsSync(file)) Object.assign(all, JSON.parse(fs.readFileSync(file, "utf8")));
  }
  return all;
};

const migrations = path.resolve(__dirname, "../../supabase/migrations");
const raised = [
  ...new Set(
    fs.readdirSync(migrations).flatMap((f) => [...fs.readFileSync(path.join(migrations, f), "utf8").matchAll(/raise exception\s+'((?:[^']|'')*)'/gi)].map((m) => m[1]!.replace(/''/g, "'"))),
  ),
];

describe("error messages in every language", () => {
  it("has every id the mapping can return in all ten catalogues", () => {
    for (const code of LOCALE_CODES) {
      const messages = catalog(code);
      for (const id of ERROR_MESSAGE_IDS) expect(messages[id], `${code}: ${id}`).toBeTruthy();
    }
  });

  it("maps every function error code to its own message, not the generic one", () => {
    for (const code of ERROR_CODES) expect(errorMessage(new AppError({ status: 400, code, message: "English text" })).id, code).not.toBe("error.generic");
  });

  it("maps every SQL exception of the migrations to a message", () => {
    expect(raised.length).toBeGreaterThan(30);
    for (const message of raised) {
      const { id } = errorMessage({ code: "P0001", message, details: null, hint: null });
      expect(id, message).not.toBe("error.generic");
    }
    expect(errorMessage({ code: "P0001", message: "A team must keep at least one owner: make another member owner first, or delete the team", hint: "last_owner" }).id).toBe("teams.error.lastOwner");
    expect(errorMessage({ code: "42501", message: "Only team owners can invite members" }).id).toBe("error.sql.onlyOwners");
    expect(errorMessage({ code: "42501", message: "The id of a bot cannot be changed" }).id).toBe("error.forbidden");
  });

  it("translates the ingest job's codes, HTTP statuses included", () => {
    for (const code of ["blocked_address", "dns_failed", "robots_disallowed", "unreadable_pdf", "no_transcript", "notion_not_found", "stalled", "redirected"]) expect(jobErrorMessage(code).id, code).not.toBe("error.generic");
    expect(jobErrorMessage("http_404")).toEqual({ id: "error.job.http", values: { status: 404 } });
  });

  it("falls back by status, never to the server's text", () => {
    expect(errorMessage(new TypeError("Failed to fetch")).id).toBe("error.network");
    expect(errorMessage(new AppError({ status: 502, code: "http_502", message: "Bad Gateway" })).id).toBe("error.internal");
    expect(errorMessage(new AppError({ status: 418, code: "teapot", message: "I'm a teapot" })).id).toBe("error.generic");
  });
});
