// The subset of Go's html/template that Supabase Auth (GoTrue) e-mail templates use, so the
// files in supabase/templates render here as they do on hosted Supabase:
//   {{ .Field }}, {{ .Data.key }}              values (missing ones print nothing, as html/template)
//   {{ if X }} {{ else if X }} {{ else }} {{ end }}
//   conditions: a value, `eq A B C...` (A equals any of the others), `ne A B`, `not X`,
//               `and X Y...`, `or X Y...`, `print X` (Go's fmt.Sprint: a missing value is
//               "<nil>"), with "string" literals and parentheses
//   {{- trims the whitespace before, -}} after; {{/* comments */}}
// Every printed value is HTML-escaped (html/template escapes by context; for the text and
// attribute values these templates print into, that is HTML escaping). Anything else is a
// parse error naming the template, rather than a silently different e-mail.

export class TemplateError extends Error {}

type Value = unknown;

type Expr =
  | { kind: "path"; path: string[] }
  | { kind: "string"; value: string }
  | { kind: "call"; fn: string; args: Expr[] };

type Node =
  | { kind: "text"; text: string }
  | { kind: "print"; expr: Expr }
  | { kind: "if"; branches: { cond: Expr; body: Node[] }[]; otherwise: Node[] };

export interface Template {
  name: string;
  execute(data: Record<string, unknown>): string;
}

const FUNCS = new Set(["eq", "ne", "not", "and", "or", "print"]);

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;" })[c]!);
}

/** Splits the source into text and actions, applying the {{- and -}} trim markers. */
function lex(name: string, src: string): ({ text: string } | { action: string })[] {
  const out: ({ text: string } | { action: string })[] = [];
  let i = 0;
  let trimNext = false;
  while (i < src.length) {
    const open = src.indexOf("{{", i);
    let text = src.slice(i, open < 0 ? undefined : open);
    if (trimNext) text = text.replace(/^\s+/, "");
    trimNext = false;
    if (open < 0) {
      if (text) out.push({ text });
      break;
    }
    const close = src.indexOf("}}", open + 2);
    if (close < 0) throw new TemplateError(`template ${name}: unclosed action`);
    let action = src.slice(open + 2, close);
    if (action.startsWith("- ") || action === "-") {
      text = text.replace(/\s+$/, "");
      action = action.slice(1);
    }
    if (action.endsWith(" -")) {
      trimNext = true;
      action = action.slice(0, -1);
    }
    if (text) out.push({ text });
    action = action.trim();
    if (!(action.startsWith("/*") && action.endsWith("*/"))) out.push({ action });
    i = close + 2;
  }
  return out;
}

function tokenize(name: string, action: string): string[] {
  const tokens: string[] = [];
  const re = /\s*("(?:[^"\\]|\\.)*"|\(|\)|[^\s()"]+)/gy;
  let m: RegExpExecArray | null;
  let pos = 0;
  while (pos < action.length && (m = re.exec(action))) {
    tokens.push(m[1]!);
    pos = re.lastIndex;
  }
  if (action.slice(pos).trim()) throw new TemplateError(`template ${name}: cannot read "${action}"`);
  return tokens;
}

function parseExpr(name: string, tokens: string[]): Expr {
  let i = 0;
  const operand = (): Expr => {
    const t = tokens[i++];
    if (t === undefined) throw new TemplateError(`template ${name}: missing value`);
    if (t === "(") {
      const e = call();
      if (tokens[i++] !== ")") throw new TemplateError(`template ${name}: unclosed parenthesis`);
      return e;
    }
    if (t.startsWith('"')) return { kind: "string", value: JSON.parse(t) as string };
    if (t === ".") return { kind: "path", path: [] };
    if (/^(\.[A-Za-z_][A-Za-z0-9_]*)+$/.test(t)) return { kind: "path", path: t.slice(1).split(".") };
    throw new TemplateError(`template ${name}: unsupported value ${t}`);
  };
  const call = (): Expr => {
    const t = tokens[i];
    if (t !== undefined && FUNCS.has(t)) {
      i++;
      const args: Expr[] = [];
      while (i < tokens.length && tokens[i] !== ")") args.push(operand());
      const min = t === "not" || t === "print" ? 1 : 2;
      if (args.length < min || (t === "not" && args.length > 1) || (t === "ne" && args.length > 2)) {
        throw new TemplateError(`template ${name}: wrong number of arguments for ${t}`);
      }
      return { kind: "call", fn: t, args };
    }
    if (t !== undefined && /^[A-Za-z_]/.test(t)) throw new TemplateError(`template ${name}: function "${t}" not defined`);
    return operand();
  };
  const e = call();
  if (i !== tokens.length) throw new TemplateError(`template ${name}: unexpected "${tokens[i]}"`);
  return e;
}

/** Parses a template; throws TemplateError with the template's name on anything outside the subset. */
export function parseTemplate(name: string, src: string): Template {
  const items = lex(name, src);
  let i = 0;
  // Parses nodes until one of `stops` (an action keyword) and returns it without consuming.
  const block = (stops: string[]): { nodes: Node[]; stop: string | null } => {
    const nodes: Node[] = [];
    while (i < items.length) {
      const item = items[i]!;
      if ("text" in item) {
        nodes.push({ kind: "text", text: item.text });
        i++;
        continue;
      }
      const [word] = item.action.split(/\s+/);
      if (word === "end" || word === "else") {
        if (!stops.includes(word)) throw new TemplateError(`template ${name}: unexpected {{${item.action}}}`);
        return { nodes, stop: word };
      }
      i++;
      if (word === "if") {
        const branches: { cond: Expr; body: Node[] }[] = [];
        let cond = parseExpr(name, tokenize(name, item.action.slice(2)));
        let otherwise: Node[] = [];
        for (;;) {
          const b = block(["else", "end"]);
          if (b.stop === null) throw new TemplateError(`template ${name}: missing {{end}}`);
          branches.push({ cond, body: b.nodes });
          const stop = items[i++] as { action: string };
          if (b.stop === "end") break;
          const rest = stop.action.slice(4).trim();
          if (rest.startsWith("if ")) {
            cond = parseExpr(name, tokenize(name, rest.slice(3)));
            continue;
          }
          if (rest) throw new TemplateError(`template ${name}: unsupported {{${stop.action}}}`);
          const last = block(["end"]);
          if (last.stop === null) throw new TemplateError(`template ${name}: missing {{end}}`);
          i++;
          otherwise = last.nodes;
          break;
        }
        nodes.push({ kind: "if", branches, otherwise });
        continue;
      }
      if (["range", "with", "define", "template", "block"].includes(word!)) {
        throw new TemplateError(`template ${name}: {{${word}}} is not supported by the local stack`);
      }
      nodes.push({ kind: "print", expr: parseExpr(name, tokenize(name, item.action)) });
    }
    return { nodes, stop: null };
  };
  const root = block([]);
  return {
    name,
    execute(data) {
      return render(root.nodes, data);
    },
  };
}

function lookup(data: Value, path: string[]): Value {
  let v = data;
  for (const key of path) {
    if (v === null || v === undefined || typeof v !== "object") return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/** Go's truth: false, 0, nil and empty strings, maps and slices are false. */
function truthy(v: Value): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === "") return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === "object") return Object.keys(v).length > 0;
  return true;
}

function evaluate(e: Expr, data: Value): Value {
  switch (e.kind) {
    case "string":
      return e.value;
    case "path":
      return lookup(data, e.path);
    case "call": {
      const args = e.args.map((a) => evaluate(a, data));
      switch (e.fn) {
        // As Go's eq: a missing value compares as false with anything; two present values of
        // different kinds (a number in user_metadata.locale) are an error, which on hosted
        // Supabase fails the e-mail.
        case "eq":
          return args.slice(1).some((b) => same(args[0], b));
        case "ne":
          return !same(args[0], args[1]);
        case "not":
          return !truthy(args[0]);
        case "print":
          return sprint(args);
        case "and":
          return args.find((a) => !truthy(a)) ?? args[args.length - 1];
        default:
          return args.find((a) => truthy(a)) ?? args[args.length - 1];
      }
    }
  }
}

/** Go's fmt.Sprint for the values templates see: spaces between operands when neither is a string. */
function sprint(args: Value[]): string {
  const text = (v: Value) => (v === null || v === undefined ? "<nil>" : typeof v === "object" ? JSON.stringify(v) : String(v));
  let out = "";
  args.forEach((v, i) => {
    if (i > 0 && typeof v !== "string" && typeof args[i - 1] !== "string") out += " ";
    out += text(v);
  });
  return out;
}

function kind(v: Value): string {
  return v === null || v === undefined ? "missing" : Array.isArray(v) ? "array" : typeof v;
}

function same(a: Value, b: Value): boolean {
  const [ka, kb] = [kind(a), kind(b)];
  if (ka === "missing" || kb === "missing") return a === b;
  if (ka !== kb || ka === "object" || ka === "array") throw new TemplateError(`error calling eq: incompatible types for comparison (${ka} and ${kb})`);
  return a === b;
}

function render(nodes: Node[], data: Value): string {
  let out = "";
  for (const n of nodes) {
    if (n.kind === "text") out += n.text;
    else if (n.kind === "print") {
      const v = evaluate(n.expr, data);
      out += v === null || v === undefined ? "" : escapeHtml(typeof v === "object" ? JSON.stringify(v) : String(v));
    } else {
      const branch = n.branches.find((b) => truthy(evaluate(b.cond, data)));
      out += render(branch ? branch.body : n.otherwise, data);
    }
  }
  return out;
}
