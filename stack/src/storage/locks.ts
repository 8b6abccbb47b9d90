// Per-key write locks inside this process: writes to one bucket/key (upload,
// update, move, copy, delete) run one at a time, so a version file is never
// removed while another writer of the same key still points a row at it.
export class KeyLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async withKeys<T>(keys: string[], fn: () => Promise<T>): Promise<T> {
    const unique = [...new Set(keys)].sort(); // one global order: no deadlock between writers
    const releases: (() => void)[] = [];
    try {
      for (const key of unique) releases.push(await this.acquire(key));
      return await fn();
    } finally {
      for (const release of releases.reverse()) release();
    }
  }

  private async acquire(key: string): Promise<() => void> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((r) => (release = r));
    const tail = previous.then(() => current);
    this.tails.set(key, tail);
    await previous;
    return () => {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
  }
}

export const lockKey = (bucket: string, key: string) => `${bucket}\u0000${key}`;
