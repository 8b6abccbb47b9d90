// Local stand-in for pg_cron + pg_net on hosted Supabase: calls edge functions on
// a fixed interval with the service-role key, as listed in supabase/schedules.json:
//   [{ "name": "data-source-sync", "function": "ingest", "path": "/tick", "every_seconds": 60 }]
import fs from "node:fs";
import path from "node:path";
import type { Logger } from "./log.ts";

export interface Schedule {
  name: string;
  function: string;
  path?: string;
  method?: string;
  every_seconds: number;
}

export function readSchedules(workdir: string): Schedule[] {
  const file = path.join(workdir, "supabase", "schedules.json");
  if (!fs.existsSync(file)) return [];
  const list = JSON.parse(fs.readFileSync(file, "utf8")) as Schedule[];
  return list.filter((s) => s && typeof s.function === "string" && Number(s.every_seconds) >= 1);
}

export function startSchedules(schedules: Schedule[], apiUrl: string, serviceRoleKey: string, exists: (fn: string) => boolean, log: Logger): () => void {
  const timers = schedules.map((s) => {
    let running = false;
    const t = setInterval(async () => {
      if (running || !exists(s.function)) return;
      running = true;
      try {
        const r = await fetch(`${apiUrl}/functions/v1/${s.function}${s.path ?? ""}`, {
          method: s.method ?? "POST",
          headers: { authorization: `Bearer ${serviceRoleKey}`, "content-type": "application/json" },
          body: (s.method ?? "POST") === "GET" ? undefined : "{}",
          signal: AbortSignal.timeout(Math.max(5, s.every_seconds) * 1000),
        });
        await r.arrayBuffer();
        if (!r.ok) log.warn(`schedule ${s.name}: ${s.function}${s.path ?? ""} answered ${r.status}`);
      } catch (e) {
        log.warn(`schedule ${s.name} failed: ${(e as Error).message}`);
      } finally {
        running = false;
      }
    }, s.every_seconds * 1000);
    t.unref();
    return t;
  });
  return () => timers.forEach(clearInterval);
}
