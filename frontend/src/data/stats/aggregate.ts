// Buckets timestamps into UTC days so the charts show one point per day, empty days included.
export interface DayPoint {
  day: string; // YYYY-MM-DD (UTC)
  conversations: number;
  messages: number;
  up: number;
  down: number;
}

export function dayRange(days: number, now: Date): string[] {
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) => new Date(end - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}

export function bucketByDay(
  days: number,
  now: Date,
  rows: { conversations: { created_at: string }[]; messages: { created_at: string }[]; feedback: { created_at: string; rating: string }[] },
): DayPoint[] {
  const points = dayRange(days, now).map((day) => ({ day, conversations: 0, messages: 0, up: 0, down: 0 }));
  const index = new Map(points.map((p) => [p.day, p]));
  for (const r of rows.conversations) {
    const p = index.get(r.created_at.slice(0, 10));
    if (p) p.conversations += 1;
  }
  for (const r of rows.messages) {
    const p = index.get(r.created_at.slice(0, 10));
    if (p) p.messages += 1;
  }
  for (const r of rows.feedback) {
    const p = index.get(r.created_at.slice(0, 10));
    if (p && r.rating === "up") p.up += 1;
    else if (p && r.rating === "down") p.down += 1;
  }
  return points;
}
