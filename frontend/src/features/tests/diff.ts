// A word diff of two answers (longest common subsequence), for the side-by-side view.
export type DiffPart = { text: string; kind: "same" | "added" | "removed" };

const MAX_WORDS = 800;

export function diffWords(before: string, after: string): { before: DiffPart[]; after: DiffPart[] } {
  const a = before.split(/(\s+)/).filter(Boolean).slice(0, MAX_WORDS * 2);
  const b = after.split(/(\s+)/).filter(Boolean).slice(0, MAX_WORDS * 2);
  const n = a.length;
  const m = b.length;
  const lcs: Uint16Array[] = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const left: DiffPart[] = [];
  const right: DiffPart[] = [];
  const push = (list: DiffPart[], text: string, kind: DiffPart["kind"]) => {
    const last = list[list.length - 1];
    if (last && last.kind === kind) last.text += text;
    else list.push({ text, kind });
  };
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      push(left, a[i]!, "same");
      push(right, b[j]!, "same");
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) push(left, a[i++]!, "removed");
    else push(right, b[j++]!, "added");
  }
  while (i < n) push(left, a[i++]!, "removed");
  while (j < m) push(right, b[j++]!, "added");
  return { before: left, after: right };
}
