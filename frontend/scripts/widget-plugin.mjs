// Builds the embeddable widget loader (sdk/src/widget.ts) with esbuild and ships it as
// /widget.js of the app, so `npm run build --workspace frontend` produces both; the same
// file is also written to sdk/dist/widget.js for the SDK package.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const sdkDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "sdk");

export async function buildWidget() {
  const result = await build({
    entryPoints: [path.join(sdkDir, "src", "widget.ts")],
    bundle: true,
    minify: true,
    format: "iife",
    target: "es2019",
    write: false,
    legalComments: "none",
  });
  const code = result.outputFiles[0].text;
  await fs.promises.mkdir(path.join(sdkDir, "dist"), { recursive: true });
  await fs.promises.writeFile(path.join(sdkDir, "dist", "widget.js"), code);
  return code;
}

/** @returns {import("vite").Plugin} */
export function widgetLoader() {
  return {
    name: "parley-widget",
    apply: "build",
    async generateBundle() {
      if (this.environment?.config?.build?.ssr) return;
      this.emitFile({ type: "asset", fileName: "widget.js", source: await buildWidget() });
    },
  };
}
