// The widget loader's build and its size budget. esbuild refuses to run inside jsdom (its
// TextEncoder), so the build runs in a plain Node child process, as `npm run build` does.
import { describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { execFileSync } from "node:child_process";

describe("widget loader", () => {
  it("builds to sdk/dist/widget.js of at most 5 KB gzipped, with no imports", async () => {
    execFileSync(process.execPath, ["--input-type=module", "-e", "await (await import('./scripts/widget-plugin.mjs')).buildWidget()"], { cwd: path.resolve(__dirname, "..") });
    const code = fs.readFileSync(path.resolve(__dirname, "../../sdk/dist/widget.js"));
    const text = code.toString();
    expect(text).toContain("data-parley-widget");
    expect(text).not.toMatch(/\bimport\s*[("{]|require\(/);
    expect(zlib.gzipSync(code).length).toBeLessThanOrEqual(5 * 1024);
  });
});
