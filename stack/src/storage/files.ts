// The file side of storage: object bytes under <dataDir>/storage/<bucket>/<key>/<version>.
// Every write goes to a temp file in the same folder, is fsynced and renamed into
// place; the database row (committed after the rename) is what makes a version
// current. Anything on disk that no row points at (temp files of an upload cut
// short, a version whose row never committed or was replaced) is removed by
// sweep() when the stack starts, so a crash leaves neither half files nor strays.
import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ERRORS, StorageError } from "./errors.ts";
import { isValidBucketName, isValidKey } from "./names.ts";

const VERSION = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TEMP_SUFFIX = ".part";

export interface WrittenFile {
  tempPath: string;
  size: number;
  md5: string;
}

export class FileStore {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = path.resolve(dataDir, "storage");
    fs.mkdirSync(this.root, { recursive: true });
  }

  /** The folder of one key; throws on anything that could leave the bucket's folder. */
  keyDir(bucket: string, key: string): string {
    if (!isValidBucketName(bucket)) throw ERRORS.invalidBucketName();
    if (!isValidKey(key)) throw ERRORS.invalidKey(key);
    const dir = path.resolve(this.root, bucket, ...key.split("/"));
    const bucketDir = path.resolve(this.root, bucket);
    if (!dir.startsWith(bucketDir + path.sep)) throw ERRORS.invalidKey(key);
    return dir;
  }

  versionPath(bucket: string, key: string, version: string): string {
    if (!VERSION.test(version)) throw ERRORS.noSuchKey();
    return path.join(this.keyDir(bucket, key), version);
  }

  bucketDir(bucket: string): string {
    if (!isValidBucketName(bucket)) throw ERRORS.invalidBucketName();
    return path.resolve(this.root, bucket);
  }

  /** Streams `source` into a temp file next to the key's versions, bounded by `limit` bytes. */
  async writeTemp(bucket: string, key: string, source: Readable, limit: number): Promise<WrittenFile> {
    const dir = this.keyDir(bucket, key);
    const tempPath = path.join(dir, `.${crypto.randomUUID()}${TEMP_SUFFIX}`);
    await this.createExclusive(dir, tempPath);
    const hash = crypto.createHash("md5");
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        size += chunk.length;
        if (size > limit) return cb(ERRORS.entityTooLarge());
        hash.update(chunk);
        cb(null, chunk);
      },
    });
    try {
      await pipeline(source, meter, fs.createWriteStream(tempPath, { flags: "r+" }));
      const handle = await fsp.open(tempPath, "r+");
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    } catch (e) {
      await this.discard(tempPath);
      throw e;
    }
    return { tempPath, size, md5: hash.digest("hex") };
  }

  /** Makes a written temp file the given version of the key (atomic rename + folder fsync). */
  async commitTemp(tempPath: string, bucket: string, key: string, version: string): Promise<string> {
    const target = this.versionPath(bucket, key, version);
    await fsp.rename(tempPath, target);
    await syncDir(path.dirname(target));
    return target;
  }

  /** Gives a version's bytes to another key/version (hard link; a copy where links fail). */
  async linkVersion(from: { bucket: string; key: string; version: string }, to: { bucket: string; key: string; version: string }) {
    const src = this.versionPath(from.bucket, from.key, from.version);
    const dst = this.versionPath(to.bucket, to.key, to.version);
    const dir = path.dirname(dst);
    await fsp.mkdir(dir, { recursive: true });
    try {
      await fsp.link(src, dst);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT") throw ERRORS.noSuchKey();
      // Versions are never modified in place, so sharing an inode is safe; where the
      // file system refuses links, copy through a temp file instead.
      const temp = path.join(dir, `.${crypto.randomUUID()}${TEMP_SUFFIX}`);
      try {
        await fsp.copyFile(src, temp);
        const h = await fsp.open(temp, "r+");
        await h.sync();
        await h.close();
        await fsp.rename(temp, dst);
      } catch (err) {
        await this.discard(temp);
        throw err;
      }
    }
    await syncDir(dir);
  }

  /** Removes a version file (missing is fine) and the folders it leaves empty. */
  async removeVersion(bucket: string, key: string, version: string | null | undefined) {
    if (!version || !VERSION.test(version) || !isValidBucketName(bucket) || !isValidKey(key)) return;
    try {
      await fsp.rm(this.versionPath(bucket, key, version), { force: true });
      await this.pruneEmpty(this.keyDir(bucket, key), this.bucketDir(bucket));
    } catch {
      // The row no longer points at this file, so the next start's sweep removes it.
    }
  }

  async discard(file: string) {
    await fsp.rm(file, { force: true }).catch(() => {});
    await this.pruneEmpty(path.dirname(file), this.root).catch(() => {});
  }

  async removeBucket(bucket: string) {
    if (!isValidBucketName(bucket)) return;
    await fsp.rm(this.bucketDir(bucket), { recursive: true, force: true });
  }

  /** Whether the data folder takes a write (for /health). */
  async writable(): Promise<boolean> {
    const probe = path.join(this.root, `.health-${process.pid}-${crypto.randomUUID()}${TEMP_SUFFIX}`);
    try {
      await fsp.writeFile(probe, "ok");
      await fsp.rm(probe, { force: true });
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Removes temp files and versions no row points at, then empty folders.
   * Run at start only: an upload in flight would look like a stray.
   */
  async sweep(isCurrent: (bucket: string, key: string, version: string) => boolean): Promise<number> {
    let removed = 0;
    const walk = async (dir: string, bucket: string | null, segments: string[]): Promise<boolean> => {
      let entries: fs.Dirent[];
      try {
        entries = await fsp.readdir(dir, { withFileTypes: true });
      } catch {
        return false;
      }
      let empty = true;
      for (const entry of entries) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          const childEmpty = bucket === null ? await walk(full, entry.name, []) : await walk(full, bucket, [...segments, entry.name]);
          if (childEmpty) await fsp.rmdir(full).catch(() => {});
          else empty = false;
          continue;
        }
        const keep = bucket !== null && segments.length > 0 && VERSION.test(entry.name) && isCurrent(bucket, segments.join("/"), entry.name);
        if (keep) {
          empty = false;
        } else {
          await fsp.rm(full, { force: true });
          removed++;
        }
      }
      return empty;
    };
    await walk(this.root, null, []);
    return removed;
  }

  /** Creates the (empty) temp file; a concurrent delete may prune the folder in between, so retry. */
  private async createExclusive(dir: string, file: string) {
    for (let attempt = 0; ; attempt++) {
      try {
        // Inside the retry: a concurrent prune may remove a parent while mkdir creates the chain.
        await fsp.mkdir(dir, { recursive: true });
        await (await fsp.open(file, "wx", 0o600)).close();
        return;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ENOENT" || attempt >= 5) throw e;
      }
    }
  }

  private async pruneEmpty(from: string, stopAt: string) {
    let dir = from;
    while (dir.startsWith(stopAt + path.sep) || dir === stopAt) {
      if (dir === this.root) return;
      try {
        await fsp.rmdir(dir);
      } catch {
        return;
      }
      if (dir === stopAt) return;
      dir = path.dirname(dir);
    }
  }
}

async function syncDir(dir: string) {
  const h = await fsp.open(dir, "r");
  try {
    await h.sync();
  } finally {
    await h.close();
  }
}

export { StorageError };
