// When a scheduled source syncs next, and which failures leave a document in place.

export function nextSyncAt(schedule: string, from = new Date()): string | null {
  const d = new Date(from);
  if (schedule === "daily") d.setUTCDate(d.getUTCDate() + 1);
  else if (schedule === "weekly") d.setUTCDate(d.getUTCDate() + 7);
  else if (schedule === "monthly") d.setUTCMonth(d.getUTCMonth() + 1);
  else return null;
  return d.toISOString();
}

/** Failures that say nothing about whether the document still exists. */
export function isTransient(code: string): boolean {
  return /^(timeout|network_error|dns_failed|http_5\d\d|http_429|notion_error|notion_unreachable|youtube_error|youtube_unreachable)$/.test(
    code,
  );
}
