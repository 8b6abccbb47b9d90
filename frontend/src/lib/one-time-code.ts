/** A typed or pasted one-time code as digits only ("123 456", "123-456" → "123456"). */
export function normalizeCode(raw: string): string {
  return raw.replace(/[\s-]/g, "");
}
