// A real corpus for bench/chat (issue 17): the PostgreSQL documentation pages Debian installs
// (`postgresql-doc-15`, as bench/ingest crawls them), read and chunked by the ingest function's
// own reader and chunker, written as JSON [{title, url, chunks: [{heading_path, content}]}].
// No stack needed. bench.mjs and load.mjs run it once (CORPUS=postgres) and keep the file.
//   node_modules/deno/deno run --no-config --node-modules-dir=none --allow-read --allow-write \
//     bench/chat/corpus.ts [--docs DIR] --out FILE
import { chunkText } from "../../supabase/functions/_shared/knowledge/chunk.ts";
import { extractHtml } from "../../supabase/functions/_shared/knowledge/readers/html.ts";

const arg = (name: string) => {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 ? Deno.args[i + 1] : undefined;
};
const docs = arg("docs") ?? "/usr/share/doc/postgresql-doc-15/html";
const out = arg("out");
if (!out) throw new Error("--out FILE is required");
const pages = [];
for (const entry of [...Deno.readDirSync(docs)].sort((a, b) => a.name.localeCompare(b.name))) {
  if (!entry.isFile || !entry.name.endsWith(".html")) continue;
  const url = `https://docs.example.test/${entry.name}`;
  const page = extractHtml(Deno.readTextFileSync(`${docs}/${entry.name}`), url);
  const chunks = chunkText(page.text, { title: page.title }).map((c) => ({ heading_path: c.heading_path, content: c.content }));
  if (chunks.length) pages.push({ title: page.title || entry.name, url, chunks });
}
Deno.writeTextFileSync(out, JSON.stringify(pages));
console.log(`${pages.length} pages, ${pages.reduce((n, p) => n + p.chunks.length, 0)} chunks -> ${out}`);
