// Writes dist/<lang-prefix>/<path>/index.html for every public route in every language,
// from the SSR build (dist-ssr/entry-server.js) and the client's dist/index.html, and
// dist/route-manifest.json: every route's pattern in every language with its validation
// rules, which the app server (stack/src/app.ts) reads to answer unknown URLs with a 404.
// The site URL (canonical and hreflang links) comes from PARLEY_SITE_URL, else the project's
// supabase/config.toml [auth] site_url; the browser corrects it from /config.js at runtime.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const dist = path.join(root, "dist");
const ssrEntry = path.join(root, "dist-ssr", "entry-server.js");
const MANIFEST = "route-manifest.json";

function siteUrlFromConfig() {
  try {
    const toml = fs.readFileSync(path.resolve(root, "..", "supabase", "config.toml"), "utf8");
    const auth = toml.split(/^\[auth\]\s*$/m)[1] ?? "";
    return /^site_url\s*=\s*"([^"]+)"/m.exec(auth.split(/^\[/m)[0] ?? "")?.[1];
  } catch {
    return undefined;
  }
}

const siteUrl = (process.env.PARLEY_SITE_URL || siteUrlFromConfig() || "http://127.0.0.1:3000").replace(/\/+$/, "");

function escapeAttr(s) {
  return String(s).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

function scriptJson(value) {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

export function buildPage(template, url, result) {
  const htmlAttrs = `lang="${escapeAttr(result.lang)}"${result.forcedColorMode ? ` data-forced-color-mode="${escapeAttr(result.forcedColorMode)}"` : ""}`;
  const guard = `<script>if(location.pathname!==${scriptJson(url)})document.documentElement.classList.add("shell-only")</script>`;
  const data = `<script>window.__staticRouterHydrationData=${scriptJson(result.hydrationData)}</script>`;
  return template
    .replace(/<html lang="en">/, `<html ${htmlAttrs}>`)
    .replace("<!--parley-head-->", result.headTags)
    .replace('<div id="root"></div>', `${guard}<div id="root" data-prerendered="${escapeAttr(url)}">${result.html}</div>${data}`);
}

async function main() {
  const template = fs.readFileSync(path.join(dist, "index.html"), "utf8");
  if (!template.includes("<!--parley-head-->") || !template.includes('<div id="root"></div>')) throw new Error("dist/index.html lacks the prerender placeholders");
  const { render, prerenderUrls, routeManifest } = await import(pathToFileURL(ssrEntry).href);
  const manifest = routeManifest();
  fs.writeFileSync(path.join(dist, MANIFEST), JSON.stringify(manifest));
  const urls = await prerenderUrls();
  let count = 0;
  for (const url of urls) {
    const result = await render(url, siteUrl);
    if (result.status !== 200) throw new Error(`prerender ${url}: status ${result.status}${result.redirect ? ` → ${result.redirect}` : ""}`);
    const out = url === "/" ? path.join(dist, "index.html") : path.join(dist, ...url.split("/").filter(Boolean), "index.html");
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, buildPage(template, url, result));
    count++;
  }
  fs.rmSync(path.join(root, "dist-ssr"), { recursive: true, force: true });
  console.log(`prerendered ${count} pages (${urls.length / 10} routes × 10 languages) with site URL ${siteUrl}; ${MANIFEST}: ${manifest.routes.length} routes`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
