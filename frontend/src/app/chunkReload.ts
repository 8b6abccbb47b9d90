// After a deploy, old chunk names disappear; a tab still running the old build fails to
// import them. Reload once to pick up the new build, and remember it for 10 s in
// sessionStorage so a chunk that is really broken shows the error page instead of looping.
export const CHUNK_RELOAD_KEY = "parley:chunk-reload";
export const CHUNK_RELOAD_WINDOW_MS = 10_000;

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(message);
}

export interface ReloadEnv {
  storage: Pick<Storage, "getItem" | "setItem">;
  now: () => number;
  reload: () => void;
}

/** Returns true when a reload was started (the caller should wait for it). */
export function reloadOnceForChunkError(error: unknown, env: ReloadEnv): boolean {
  if (!isChunkLoadError(error)) return false;
  const last = Number(env.storage.getItem(CHUNK_RELOAD_KEY) ?? 0);
  if (Number.isFinite(last) && env.now() - last < CHUNK_RELOAD_WINDOW_MS) return false;
  env.storage.setItem(CHUNK_RELOAD_KEY, String(env.now()));
  env.reload();
  return true;
}

export async function importWithReload<T>(importer: () => Promise<T>): Promise<T> {
  try {
    return await importer();
  } catch (error) {
    if (typeof window !== "undefined") {
      let started = false;
      try {
        started = reloadOnceForChunkError(error, { storage: window.sessionStorage, now: Date.now, reload: () => window.location.reload() });
      } catch {
        /* sessionStorage blocked: fall through to the error page */
      }
      if (started) return new Promise<T>(() => {});
    }
    throw error;
  }
}
