// The knowledge bench/chat's bots answer from, and the questions asked of it:
//   synthetic  CHUNKS generated chunks (100 documents, six sentences each from a 130-word
//              help-centre vocabulary, seeded PRNG): every question word occurs in most chunks,
//              which no real help centre does (the worst case for full-text ranking);
//   postgres   the PostgreSQL 15 documentation (Debian's postgresql-doc-15, as bench/ingest
//              crawls it), read and chunked by the ingest function's own reader and chunker
//              (corpus.ts, run once with Deno, cached in .cache/): ~11,000 real chunks, asked
//              bench/ingest's 70 questions.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");

const vocab = (
  "account billing invoice password reset security login export import notes folder share team member role admin owner " +
  "workspace sync offline mobile desktop browser extension calendar reminder tag search filter archive trash restore backup " +
  "plan upgrade downgrade refund payment card receipt tax region language theme dark light shortcut keyboard editor markdown " +
  "table image attachment pdf upload limit storage quota notification email digest webhook api token integration slack " +
  "calendar zapier template checklist task due date priority comment mention history version conflict device session"
).split(" ");

function mulberry32(a) {
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sentence(rng) {
  const n = 8 + Math.floor(rng() * 10);
  const words = Array.from({ length: n }, () => vocab[Math.floor(rng() * vocab.length)]);
  return words.join(" ").replace(/^./, (c) => c.toUpperCase()) + ".";
}

function synthetic(chunks) {
  const rng = mulberry32(42);
  const DOCS = 100;
  const perDoc = Math.ceil(chunks / DOCS);
  const docs = [];
  for (let d = 0; d < DOCS && d * perDoc < chunks; d++) {
    const doc = { title: `Article ${d}`, url: `https://help.example.test/articles/${d}`, chunks: [] };
    for (let c = 0; c < perDoc && d * perDoc + c < chunks; c++) {
      doc.chunks.push({
        heading_path: `Article ${d} > Section ${c}`,
        content: Array.from({ length: 6 }, () => sentence(rng)).join(" "),
      });
    }
    docs.push(doc);
  }
  return docs;
}

function postgres() {
  const file = path.join(root, ".cache", "bench-chat-postgres.json");
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    execFileSync(
      path.join(root, "node_modules/deno/deno"),
      [
        "run",
        "--no-config",
        "--node-modules-dir=none",
        "--allow-read",
        "--allow-write",
        "--allow-env",
        path.join(here, "corpus.ts"),
        "--out",
        file,
      ],
      { cwd: root, stdio: "inherit", env: { ...process.env, DENO_DIR: path.join(root, ".cache", "deno") } },
    );
  }
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

/** The documents of CORPUS: [{title, url, chunks: [{heading_path, content}]}]. */
export function corpusDocuments(corpus, chunks) {
  if (corpus === "synthetic") return synthetic(chunks);
  if (corpus === "postgres") return postgres();
  throw new Error(`CORPUS must be synthetic or postgres, not ${corpus}`);
}

const helpCentre = [
  "How do I reset my password?",
  "Can I export my notes as PDF?",
  "How does billing and invoice work?",
  "How do I share a folder with my team?",
  "Is there a dark theme?",
  "What are the storage limits for uploads?",
  "How do I restore notes from the trash?",
  "Do you support webhooks and an API token?",
];

/** The questions asked of CORPUS, in order (callers rotate through them). */
export function corpusQuestions(corpus) {
  if (corpus === "postgres")
    return JSON.parse(fs.readFileSync(path.join(root, "bench/ingest/questions.json"), "utf8")).map((q) => q.q);
  return helpCentre;
}

/**
 * Inserts the documents as one text source of the bot (service connection `db`), then vacuums and
 * analyzes the knowledge tables.
 */
export async function insertKnowledge(db, botId, documents) {
  const {
    rows: [source],
  } = await db.query(
    `insert into public.data_sources (bot_id, type, name) values ($1, 'text', 'Generated') returning id`,
    [botId],
  );
  for (const doc of documents) {
    const {
      rows: [row],
    } = await db.query(
      `insert into public.documents (data_source_id, bot_id, title, url) values ($1, $2, $3, $4) returning id`,
      [source.id, botId, doc.title, doc.url],
    );
    // At most 500 rows (2,500 parameters) per insert.
    for (let from = 0; from < doc.chunks.length; from += 500) {
      const values = [];
      const params = [];
      for (const [c, chunk] of doc.chunks.slice(from, from + 500).entries()) {
        params.push(row.id, botId, from + c, chunk.heading_path, chunk.content);
        const i = params.length;
        values.push(`($${i - 4}, $${i - 3}, $${i - 2}, $${i - 1}, $${i})`);
      }
      await db.query(
        `insert into public.chunks (document_id, bot_id, position, heading_path, content) values ${values.join(",")}`,
        params,
      );
    }
  }
  // What a live system's autovacuum does within a minute of a bulk load (after loading the real
  // corpus it vacuumed chunks, documents and bot_lexemes 20-40 s later, while the benches ran):
  // VACUUM, which also merges the GIN indexes' pending lists (fastupdate) into the indexes, and
  // ANALYZE. Without it a bench's first minute shares the cores with autovacuum and every
  // full-text lookup reads the pending list (bench/chat/REPORT.md, "Retrieval cost").
  await db.query("vacuum (analyze) public.chunks, public.documents, private.bot_lexemes, private.bot_chunk_stats");
}
