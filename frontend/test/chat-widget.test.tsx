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

describe("widget loader labels", () => {
  it("labels the bubble and the frame in data-lang's language, English otherwise", async () => {
    const { labels, mount, readConfig } = await import("../../sdk/src/widget");
    const config = readConfig({ botId: "6f1c1a4e-9a56-4e55-8a39-0d3c3c1d9a11", lang: "de" }, "https://app.test/widget.js")!;
    const { toggle } = mount(config);
    const button = document.querySelector("[data-parley-widget] button")!;
    const frame = document.querySelector("[data-parley-widget] iframe")!;
    expect(button.getAttribute("aria-label")).toBe("Chat öffnen");
    expect(frame.getAttribute("title")).toBe("Chat");
    toggle(true);
    expect(button.getAttribute("aria-label")).toBe("Chat schließen");
    expect(button.getAttribute("aria-expanded")).toBe("true");
    for (const lang of ["en", "de", "es", "fr", "it", "jp", "cn", "el", "pl", "nl"]) {
      const [open, close, title] = labels(lang);
      expect(open && close && title, lang).toBeTruthy();
      if (lang !== "en") expect(open, lang).not.toBe("Open chat");
    }
    expect(labels("jp")).toEqual(["チャットを開く", "チャットを閉じる", "チャット"]);
    expect(labels("xx")).toEqual(labels("en"));
  });
});
