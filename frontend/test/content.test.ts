// Every public content page (blog, docs, legal, launch week, pages) exists in all ten languages,
// with a title, and no page still carries the old "template" disclaimer.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LOCALES } from "../src/i18n/locales";
import { parseMarkdownFile } from "../scripts/markdown.mjs";

const ROOT = join(__dirname, "..", "content");
const collections = readdirSync(ROOT);

describe("content in every language", () => {
  for (const collection of collections) {
    const files = readdirSync(join(ROOT, collection));
    const english = files.filter((f) => !/\.[a-z]{2}\.md$/.test(f));
    for (const file of english) {
      const slug = file.replace(/\.md$/, "");
      it(`${collection}/${slug} has all ten languages with a title`, () => {
        for (const { code } of LOCALES) {
          const name = code === "en" ? `${slug}.md` : `${slug}.${code}.md`;
          expect(files, `${collection}/${name}`).toContain(name);
          const { attributes, html } = parseMarkdownFile(readFileSync(join(ROOT, collection, name), "utf8"), slug);
          expect((attributes as { title?: string }).title, `${collection}/${name} title`).toBeTruthy();
          expect(html).not.toMatch(/is a template/i);
        }
      });
    }
  }

  it("legal pages mark where the operator's details must be filled in, in every language", () => {
    const legal = readdirSync(join(ROOT, "legal"));
    for (const file of legal) expect(readFileSync(join(ROOT, "legal", file), "utf8"), file).toMatch(/^> \*\*/m);
  });
});
