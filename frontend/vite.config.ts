/// <reference types="vitest/config" />
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";
import { parse as parseIcu } from "@formatjs/icu-messageformat-parser";
import { parseMarkdownFile } from "./scripts/markdown.mjs";
import { widgetLoader } from "./scripts/widget-plugin.mjs";
import { isLocaleMessagesFile } from "./scripts/locale-files.mjs";
import { VISITOR_HTML, VISITOR_PATH, visitorScreen } from "./src/visitor/paths";

const require = createRequire(import.meta.url);

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

/**
 * The visitor's pages (the hosted chat page, the embeds) get their own lean entry,
 * visitor.html, in `npm run dev` and `vite preview` as the app server gives it in production
 * (frontend/server/app-server.ts): every other path stays the app's index.html.
 */
function visitorPages(): Plugin {
  const rewrite = (req: { url?: string }, _res: unknown, next: () => void) => {
    const url = new URL(req.url ?? "/", "http://vite");
    if (visitorScreen(url.pathname)) req.url = `/${VISITOR_HTML}${url.search}`;
    next();
  };
  return {
    name: "parley-visitor-pages",
    configureServer(server) {
      server.middlewares.use(rewrite);
    },
    configurePreviewServer(server) {
      server.middlewares.use(rewrite);
    },
  };
}

/**
 * visitor.html's head, in the visitor build: two small inline scripts so the page's requests
 * start with the HTML instead of one after another once the entry has run. Before /config.js:
 * `<link rel="modulepreload">` for this language's message chunks (their names come from the
 * bundle). After it: the bot's public face (get_public_bot with the anon key: the same for
 * every caller) as `window.__PARLEY_EARLY_BOT__`, which the entry uses instead of asking again
 * (src/visitor/early-bot.ts). Static hosts serve the file as it is; the app server
 * (server/app-server.ts) also puts /config.js' script in its place, one round trip less.
 */
function visitorHead(): Plugin {
  return {
    name: "parley-visitor-head",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(html, ctx) {
        if (!ctx.bundle || !html.includes('<script src="/config.js"></script>')) return html;
        const files: Record<string, string[]> = {};
        for (const chunk of Object.values(ctx.bundle)) {
          const m =
            chunk.type === "chunk"
              ? /\/i18n\/messages\/(?:chat\/|chatVisitor\/)?([a-z]{2})\.json(?:\?visitor)?$/.exec(
                  chunk.facadeModuleId ?? "",
                )
              : null;
          if (m) (files[m[1]!] ??= []).push(`/${chunk.fileName}`);
        }
        const preload = `<script>(function(){var f=${JSON.stringify(files)},l=(/^.([a-z]{2}).bots./.exec(location.pathname)||[])[1];(f[l]||f.en||[]).forEach(function(h){var k=document.createElement("link");k.rel="modulepreload";k.crossOrigin="";k.href=h;document.head.appendChild(k)})})();</script>`;
        const bot = `<script>(function(){var m=new RegExp(${JSON.stringify(VISITOR_PATH.source)}).exec(location.pathname),c=window.__PARLEY_CONFIG__||{},k=c.supabaseAnonKey;if(!m||!c.supabaseUrl||!k||!window.fetch)return;window.__PARLEY_EARLY_BOT__={id:m[1],rows:fetch(String(c.supabaseUrl).replace(/[/]+$/,"")+"/rest/v1/rpc/get_public_bot",{method:"POST",headers:{apikey:k,authorization:"Bearer "+k,"content-type":"application/json"},body:JSON.stringify({bot_id:m[1]})}).then(function(r){return r.ok?r.json():null},function(){return null})}})();</script>`;
        return html.replace(
          '<script src="/config.js"></script>',
          `${preload}\n    <script src="/config.js"></script>\n    ${bot}`,
        );
      },
    },
  };
}

/**
 * Locale files are compiled to ICU message ASTs at build time, so the browser bundle can use
 * react-intl without its message parser (about 10 KB gzipped less on every page). The result
 * is still JSON, which Vite's JSON plugin then turns into a module.
 */
/** What the visitor's entry keeps of the shared message file (`<locale>.json?visitor`). */
const VISITOR_SHARED_MESSAGES = /^(?:common\.|consent\.|toast\.|page\.bots\.|nav\.backToBot$)/;

function precompiledMessages(): Plugin {
  return {
    name: "parley-precompiled-messages",
    enforce: "pre",
    transform(code, id) {
      const [file, query] = id.split("?");
      if (!file || !isLocaleMessagesFile(file)) return null;
      let messages = JSON.parse(code) as Record<string, string>;
      if (query === "visitor")
        messages = Object.fromEntries(Object.entries(messages).filter(([k]) => VISITOR_SHARED_MESSAGES.test(k)));
      const compiled = Object.fromEntries(Object.entries(messages).map(([k, v]) => [k, parseIcu(v)]));
      return { code: JSON.stringify(compiled), map: null };
    },
  };
}

/** The functions' shared folder (the Database type, contracts): see tsconfig.json "paths". */
const sharedDir = fileURLToPath(new URL("../supabase/functions/_shared", import.meta.url));

const rootDir = path.dirname(fileURLToPath(import.meta.url));

const parserPath = path.join(
  path.dirname(require.resolve("@formatjs/icu-messageformat-parser/package.json")),
  "lib",
  "no-parser.js",
);

export default defineConfig(({ command, isSsrBuild, mode }) => ({
  plugins: [
    markdownContent(),
    precompiledMessages(),
    devRuntimeConfig(),
    visitorPages(),
    ...(mode === "visitor" ? [visitorHead()] : []),
    react(),
    widgetLoader(),
  ],
  resolve: {
    // Only the client build drops the parser; dev and tests keep it for clear errors.
    alias: [
      { find: /^@shared\//, replacement: `${sharedDir}/` },
      ...(command === "build" && !isSsrBuild
        ? [{ find: /^@formatjs\/icu-messageformat-parser$/, replacement: parserPath }]
        : []),
    ],
  },
  build: {
    target: "es2022",
    sourcemap: false,
    // Two pages, two builds into one dist: the app (index.html), then `--mode visitor` the
    // visitor's lean entry (visitor.html). Separate builds so each is tree-shaken for itself:
    // in one build, a library both use (react-query, react-intl) carries into the visitor's
    // chunks every part the app uses. The SSR build (prerender) names its own entry.
    ...(isSsrBuild
      ? {}
      : { rollupOptions: { input: path.resolve(rootDir, mode === "visitor" ? VISITOR_HTML : "index.html") } }),
    ...(mode === "visitor" ? { emptyOutDir: false, copyPublicDir: false } : {}),
  },
  test: {
    environment: "jsdom",
    setupFiles: ["./test/setup.ts"],
    include: ["test/**/*.test.{ts,tsx}"],
    css: false,
    testTimeout: 30_000,
    // `npm test` (scripts/test.mjs) reads the counts from this JSON report.
    reporters: process.env.VITEST_JSON ? ["default", ["json", { outputFile: process.env.VITEST_JSON }]] : ["default"],
  },
}));
