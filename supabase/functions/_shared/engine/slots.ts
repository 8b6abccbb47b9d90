// At most N pieces of work of one kind at once in this worker, the rest first come first served.
// Without it, a burst of turns interleaves at every shared resource (PostgREST's connection pool
// above all) and each finishes late; with it they go through in the order they came (issue 17).
import { limitFromEnv } from "../rate-limit.ts";

export class FifoSlots {
  private running = 0;
  private readonly queue: (() => void)[] = [];

  /** `envName` sets the number (read on each use, so tests and benches can change it). */
  constructor(
    private readonly envName: string,
    private readonly fallback: number,
  ) {}

  /** Runs `work` when a slot is free. */
  async run<T>(work: () => PromiseLike<T>): Promise<T> {
    if (this.running < limitFromEnv(this.envName, this.fallback)) this.running++;
    else await new Promise<void>((resolve) => this.queue.push(resolve));
    try {
      return await work();
    } finally {
      // The slot passes straight to the next in line, else it is freed.
      const next = this.queue.shift();
      if (next) next();
      else this.running--;
    }
  }
}
