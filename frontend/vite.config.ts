/// <reference types="vitest/config" />
import fs from "node:fs";
import path from "node:path";
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";
import { parseMarkdownFile } from "./scripts/markdown.mjs";

/**
 * Markdown files in content/ become modules at build time, so the client never ships a
 * Markdown parser: `file.md` exports `{ attributes, html }`, `file.md?meta` only the front matter
 * (used for lists, so a list does not pull in every body).
 */
function markdownContent(): Plugin {
  return {
    name: "parley-markdown",
    enforce: "pre",
    async load(id) {
      const [file, query] = id.split("?");
      if (!file || !file.endsWith(".md")) return null;
      const source = await fs.promises.readFile(file, "utf8");
      const { attributes, html } = parseMarkdownFile(source, path.basename(file, ".md"));
      if (query === "meta") return `export default ${JSON.stringify(attributes)};`;
      return `export const attributes = ${JSON.stringify(attributes)};\nexport const html = ${JSON.stringify(html)};\nexport default { attributes, html };`;
    },
  };
}

/**
 * In `npm run dev` there is no stack app server, so /config.js would fall through to index.html.
 * Serve an empty script instead: the app then reads VITE_SUPABASE_URL / VITE_SUPABASE_ANON_KEY.
 */
function devRuntimeConfig(): Plugin {
  return {
    name: "parley-dev-config",
    apply: "serve",
    configureServer(server) {
      server.middlewares.use("/config.js", (_req, res) => {
        res.setHeader("content-type", "text/javascript; charset=utf-8");
        res.end("/* dev: configuration comes from VITE_SUPABASE_URL and VITE_SUPABASE_ANON_KEY */\n");
      });
    },
  };
}

export default defineConfig({
  plugins: [markdownContent(), devRuntimeConfig(), react()],
  build: {
    target: "es2022",
    sourcemap: false,
  },
  test: {
    environment: "jsdom",
    setupFiles: ["./test/setup.ts"],
    include: ["test/**/*.test.{ts,tsx}"],
    css: false,
  },
});
