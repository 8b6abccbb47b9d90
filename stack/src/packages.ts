import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The installed folder of an npm package, found the way Node looks up node_modules. */
export function packageDir(name: string): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, "node_modules", name);
    if (fs.existsSync(path.join(candidate, "package.json"))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`The npm package ${name} is not installed (run npm ci).`);
    dir = parent;
  }
}
