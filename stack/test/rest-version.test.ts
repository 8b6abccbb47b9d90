// The PostgREST 12 differences the README's compatibility table lists (hosted Supabase runs
// 13/14), as unmodified supabase-js sees them here. They document, they do not fake: when
// the stack gets PostgREST 13, these fail and the README's row goes. The app keeps off
// these features (the last test checks its data calls).
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createUser, mintUserToken, stackInfo, userClient } from "./helpers.ts";

let bookId: number;
let ownerId: string;
let token: Awaited<ReturnType<typeof userClient>>;

beforeAll(async () => {
  ownerId = await createUser();
  token = await userClient(ownerId);
  const { data, error } = await token.from("notebooks").insert({ title: "Versions" }).select().single();
  expect(error).toBeNull();
  bookId = data!.id;
  expect((await token.from("notes").insert([1, 2].map((i) => ({ notebook_id: bookId, body: `note ${i}`, stars: i })))).error).toBeNull();
});

describe("PostgREST 12, where hosted (13/14) differs", () => {
  it("an unknown table is Postgres's 42P01, not 13's PGRST205", async () => {
    const missing = await token.from("no_such_table").select("*");
    expect(missing.error?.code).toBe("42P01");
    expect(missing.status).toBe(404);
  });

  it("Prefer: max-affected is not known: strict handling refuses it, lenient handling updates every row", async () => {
    const s = stackInfo();
    const patch = async (prefer: string) =>
      fetch(`${s.apiUrl}/rest/v1/notes?notebook_id=eq.${bookId}`, {
        method: "PATCH",
        headers: { apikey: s.anonKey, authorization: `Bearer ${await mintUserToken(ownerId)}`, "content-type": "application/json", prefer },
        body: JSON.stringify({ body: "both" }),
      });
    // PostgREST 13 refuses an update of two rows with max-affected=1 (PGRST124) and changes nothing.
    const strict = await patch("handling=strict, max-affected=1, return=representation");
    expect(strict.status).toBe(400);
    expect(((await strict.json()) as { code: string }).code).toBe("PGRST122"); // "invalid preferences"
    const lenient = await patch("max-affected=1, return=representation");
    expect(lenient.status).toBe(200);
    expect(((await lenient.json()) as unknown[]).length).toBe(2);
  });

  it("a spread over a to-many relation is refused (13 returns the values as arrays)", async () => {
    const spread = await token.from("notebooks").select("id, ...notes(body)").eq("id", bookId);
    expect(spread.error).not.toBeNull();
    expect(spread.status).toBe(400);
    // A spread over a to-one relation works on both.
    const toOne = await token.from("notes").select("body, ...notebooks(title)").eq("notebook_id", bookId).order("stars");
    expect(toOne.error).toBeNull();
    expect(toOne.data![0]).toMatchObject({ title: "Versions" });
  });

  it("the app's own data calls use none of them", () => {
    const root = path.resolve(import.meta.dirname, "..", "..");
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) {
          if (e.name !== "node_modules") walk(p);
        } else if (/\.(ts|tsx)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) {
          const text = fs.readFileSync(p, "utf8");
          if (/max-affected|maxAffected/i.test(text) || /\.select\(\s*["'`][^"'`]*\.\.\./.test(text)) offenders.push(path.relative(root, p));
        }
      }
    };
    for (const dir of ["frontend/src", "supabase/functions"]) walk(path.join(root, dir));
    expect(offenders).toEqual([]);
  });
});
