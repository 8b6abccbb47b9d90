// A hostile or careless client against every edge function, through the stack's gateway:
// malformed JSON, wrong content types and JSON types, unknown methods, bodies of megabytes,
// NUL bytes, unpaired surrogates, 100k-character strings, markup, path traversal, SQL-ish text,
// invalid ids and numbers, deep nesting, missing or garbage Authorization headers and the anon
// key without a user. Each must get its 4xx with the one error shape ({error: {code, message}})
// and nothing internal (no stack, no file, no error class) in the body: never a 500.
import assert from "node:assert/strict";
import { DEMO, mintToken } from "../channels/test-stack.ts";
import { signedInUser, sql, stack, testIp } from "./testing.ts";

/** bare: neither apikey nor Authorization; none: the apikey header only. */
type Auth = "bare" | "none" | "anon" | "garbage" | "long" | "user" | "owner" | "platform" | "service" | "apikey";

interface Probe {
  fn: string;
  path?: string;
  method?: string;
  auth?: Auth;
  contentType?: string | null;
  body?: string | Uint8Array<ArrayBuffer>;
  headers?: Record<string, string>;
}

let tokens: Record<Auth, string | null> | null = null;

async function tokensOf(): Promise<Record<Auth, string | null>> {
  if (tokens) return tokens;
  const secret = Deno.env.get("SUPABASE_JWT_SECRET");
  if (!secret) throw new Error("SUPABASE_JWT_SECRET is not set: run through scripts/with-stack.mjs");
  const [{ token: user }, owner, platform] = await Promise.all([
    signedInUser(),
    mintToken(secret, DEMO.owner),
    mintToken(secret, DEMO.platformAdmin, "aal2"),
  ]);
  // An API key of the demo bot, made by its owner (create_api_key).
  const made = await fetch(`${stack.url}/rest/v1/rpc/create_api_key`, {
    method: "POST",
    headers: { apikey: stack.anonKey, Authorization: `Bearer ${owner}`, "Content-Type": "application/json" },
    body: JSON.stringify({ bot_id: DEMO.helpCenterBot, name: "hostile", rate_limit_per_minute: 1000 }),
  });
  assert.equal(made.status, 200, await made.clone().text());
  const apikey = ((await made.json()) as { key: string }[])[0]!.key;
  tokens = {
    bare: null,
    none: null,
    anon: stack.anonKey,
    garbage: "garbage.not-a.jwt",
    long: "x".repeat(8000),
    user,
    owner,
    platform,
    service: stack.serviceRoleKey,
    apikey,
  };
  return tokens;
}

interface Answer {
  status: number;
  text: string;
  contentType: string;
}

async function send(p: Probe): Promise<Answer> {
  const t = await tokensOf();
  const headers = new Headers(p.headers);
  if (!headers.has("x-forwarded-for")) headers.set("x-forwarded-for", testIp());
  if (p.auth !== "bare") headers.set("apikey", stack.anonKey);
  const token = t[p.auth ?? "user"];
  if (token) headers.set("authorization", `Bearer ${token}`);
  if (p.contentType !== null && p.body !== undefined) headers.set("content-type", p.contentType ?? "application/json");
  const res = await fetch(`${stack.url}/functions/v1/${p.fn}${p.path ?? ""}`, {
    method: p.method ?? "POST",
    headers,
    body: p.body,
  });
  return { status: res.status, text: await res.text(), contentType: res.headers.get("content-type") ?? "" };
}

const LEAKS = [
  "    at ",
  ".ts:",
  ".js:",
  "file://",
  "Error:",
  "TypeError",
  "RangeError",
  "SyntaxError",
  "node_modules",
  "/supabase/functions/",
  "PGRST",
  "postgres",
  "SQLSTATE",
  "violates",
];

/** What is wrong with an answer that should be one of `expected` (a 4xx with the error shape, nothing internal), or null. */
function problemOf(label: string, a: Answer, expected: number[], gatewayShape = false): string | null {
  const where = `${label}: ${a.status} ${a.text.slice(0, 200)}`;
  if (!expected.includes(a.status)) return `${where} (expected ${expected.join("/")})`;
  if (a.status < 300) return null;
  if (!/application\/json/.test(a.contentType)) return `${where}: content-type ${a.contentType}`;
  let body: { error?: { code?: unknown; message?: unknown }; code?: unknown };
  try {
    body = JSON.parse(a.text);
  } catch {
    return `${where}: not JSON`;
  }
  // The gateway's own refusals (before any function runs) have hosted Supabase's shape,
  // {code, message}: its body limit (413) and deliver's verify_jwt gate (401).
  if (gatewayShape && typeof body.code === "string" && !body.error) return null;
  if (typeof body.error?.code !== "string" || !/^[a-z_]+$/.test(body.error.code)) return `${where}: no error code`;
  if (typeof body.error?.message !== "string") return `${where}: no error message`;
  const leak = LEAKS.find((l) => a.text.includes(l));
  return leak ? `${where}: leaks ${JSON.stringify(leak)}` : null;
}

/** Every problem of a test at once (one run shows them all). */
class Problems {
  readonly list: string[] = [];
  check(label: string, a: Answer, expected: number[], gatewayShape = false) {
    const p = problemOf(label, a, expected, gatewayShape);
    if (p) this.list.push(p);
  }
  done() {
    assert.deepEqual(this.list, [], `${this.list.length} refusals were wrong:\n${this.list.join("\n")}`);
  }
}

/** A function that reads a JSON body: where to send it, as whom, and a body it checks field by field. */
interface BodyTarget {
  fn: string;
  path?: string;
  auth: Auth;
  /** A body that passes the checks but names nothing that exists (or is refused later, harmlessly). */
  base: Record<string, unknown>;
  /** A field that must be an id: hostile values in it are 400. */
  idField?: string;
  /** A text field: NUL, unpaired surrogates are 400. */
  textField: string;
  /** The status a well-formed `base` gets (to tell "checked" from "refused before reading"). */
  baseStatus: number[];
  /** The function's body limit is under 2 MB; the huge payload is 413. */
  huge?: "2mb" | "20mb";
  /** Statuses a body case may get besides 400 (e.g. 403: the caller is refused before the body is read). */
  before?: number[];
  /** The status of `{}` when every field is optional. */
  empty?: number[];
  /** Unknown fields are dropped, not refused (event: Plausible's tracker sends its own). */
  strips?: boolean;
}

const NIL = "00000000-0000-4000-8000-000000000000";

const TARGETS: BodyTarget[] = [
  { fn: "account-delete", auth: "user", base: { confirm: "KEEP" }, textField: "confirm", baseStatus: [400] },
  {
    fn: "account-notice",
    auth: "anon",
    base: { email: "nobody-hostile@parley.test", locale: "xx" },
    textField: "email",
    baseStatus: [400],
  },
  {
    fn: "admin",
    auth: "platform",
    base: { action: "ban", user_id: NIL },
    idField: "user_id",
    textField: "confirm",
    baseStatus: [404],
    huge: "2mb",
  },
  {
    fn: "api",
    path: "/v1/chat",
    auth: "apikey",
    base: { message: "hello", bot_id: NIL },
    idField: "bot_id",
    textField: "message",
    baseStatus: [403],
  },
  {
    fn: "billing",
    path: "/checkout",
    auth: "user",
    base: { team_id: NIL, plan_id: "pro", interval: "month" },
    idField: "team_id",
    textField: "plan_id",
    baseStatus: [403],
  },
  // 5 attempts a minute per visitor: what passes the checks may meet that limit (429).
  {
    fn: "bot-login",
    auth: "user",
    base: { bot_id: NIL, password: "secret" },
    idField: "bot_id",
    textField: "password",
    baseStatus: [404, 429],
  },
  {
    fn: "channels-connect",
    auth: "user",
    base: { channel_id: NIL, action: "test" },
    idField: "channel_id",
    textField: "action",
    baseStatus: [400, 404],
  },
  {
    fn: "chat",
    auth: "user",
    base: { bot_id: NIL, message: "hello" },
    idField: "bot_id",
    textField: "message",
    baseStatus: [404],
    huge: "20mb",
  },
  {
    fn: "deliver",
    path: "/tick",
    auth: "service",
    base: { now: "not a time" },
    textField: "now",
    baseStatus: [400],
    empty: [200],
  },
  {
    fn: "event",
    auth: "none",
    base: { name: "hostile", url: "https://hostile.test/" },
    textField: "name",
    baseStatus: [202],
    strips: true,
  },
  {
    fn: "ingest",
    path: "/notion/token",
    auth: "owner",
    base: { data_source_id: NIL, access_token: "secret_x" },
    idField: "data_source_id",
    textField: "access_token",
    baseStatus: [404],
  },
  {
    fn: "notion-connect",
    path: "/search",
    auth: "owner",
    base: { connection_id: NIL, query: "q" },
    idField: "connection_id",
    textField: "query",
    baseStatus: [404, 503],
    before: [503],
  },
  {
    fn: "power-ups",
    path: "/reply",
    auth: "owner",
    base: { chat_id: NIL, content: "hi" },
    idField: "chat_id",
    textField: "content",
    baseStatus: [403, 404],
  },
  {
    fn: "tasks",
    path: "/validate",
    auth: "user",
    base: { cron: "0 9 * * *", timezone: "Mars/Olympus" },
    textField: "cron",
    baseStatus: [200, 400],
  },
  {
    fn: "team-invite",
    auth: "user",
    base: { team_id: NIL, email: "x@parley.test" },
    idField: "team_id",
    textField: "email",
    baseStatus: [403, 404],
  },
  {
    fn: "tests",
    path: `/bots/${DEMO.helpCenterBot}/import`,
    auth: "owner",
    base: { csv: "" },
    textField: "csv",
    baseStatus: [400],
    huge: "2mb",
  },
];

/** Hostile values for an id field (each 400). */
const BAD_IDS: unknown[] = [
  "not-a-uuid",
  "../../etc/passwd",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  `${NIL}'; drop table bots; --`,
  "\u0000",
  "\ud800",
  "x".repeat(100_000),
  -1,
  1e308,
  0,
  true,
  [],
  {},
  [NIL],
  { id: NIL },
];
/** Values no text field can store (each 400). */
const UNSTORABLE = ["a\u0000b", "a\ud800b", "\udc00", "ok\u0000"];
/** Texts some fields accept and others refuse: never a 5xx. */
const ODD_TEXTS = [
  "<script>alert(1)</script>",
  "../../../../etc/passwd",
  "'; drop table bots; --",
  "x".repeat(100_000),
  "😀".repeat(1000),
];

/** Stands for the number 1e400 in a body (JSON.stringify would write Infinity as null). */
const HUGE = Symbol("1e400");

/** JSON text of `value` with every HUGE written as 1e400 (which JSON.parse reads as Infinity). */
function jsonWith(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (v === HUGE ? "\u0001HUGE\u0001" : v)).replaceAll(
    '"\\u0001HUGE\\u0001"',
    "1e400",
  );
}

function deep(depth: number): string {
  return "[".repeat(depth) + "]".repeat(depth);
}

Deno.test("hostile bodies: every function that reads JSON answers 4xx with the error shape", async () => {
  await tokensOf();
  const problems = new Problems();
  await Promise.all(
    TARGETS.map(async (t) => {
      const probe = (body: string | Uint8Array<ArrayBuffer>, extra: Partial<Probe> = {}) =>
        send({ fn: t.fn, path: t.path, auth: t.auth, body, ...extra });
      const expect400 = [400, ...(t.before ?? [])];
      const withField = (field: string, value: unknown) => jsonWith({ ...t.base, [field]: value });

      // The well-formed body: this is what "checked" looks like for the caller used here.
      const base = await probe(JSON.stringify(t.base));
      problems.check(`${t.fn} base`, base, t.baseStatus);

      const cases: [string, string | Uint8Array<ArrayBuffer>, number[], Partial<Probe>?][] = [
        ["malformed", "{nope", expect400],
        ["empty", "", expect400],
        ["array", "[]", expect400],
        ["number", "123", expect400],
        ["null", "null", expect400],
        ["string", '"hello"', expect400],
        ["true", "true", expect400],
        ["empty object", "{}", t.empty ?? expect400],
        [
          "unknown field",
          JSON.stringify({ ...t.base, __proto__x: 1, constructor: "x" }),
          t.strips ? t.baseStatus : expect400,
        ],
        ["deep", deep(400), expect400],
        [
          "__proto__",
          `{"__proto__":{"role":"service_role"},${JSON.stringify(t.base).slice(1)}`,
          t.strips ? t.baseStatus : expect400,
        ],
        ["byte order mark", `\ufeff${JSON.stringify(t.base)}`, t.baseStatus],
        ["raw NUL", `{"${t.textField}":"a\u0000b"}`, expect400],
        ["invalid UTF-8", new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), expect400],
        ["form", "a=b&c=d", expect400, { contentType: "application/x-www-form-urlencoded" }],
        ["xml", "<a>1</a>", expect400, { contentType: "application/xml" }],
        ["text field a number", withField(t.textField, HUGE), expect400],
        ["text field an object", withField(t.textField, { $ne: null }), expect400],
        ["text field NaN-ish", withField(t.textField, "NaN"), [...t.baseStatus, 400]],
      ];
      for (const s of UNSTORABLE) cases.push([`unstorable ${JSON.stringify(s)}`, withField(t.textField, s), expect400]);
      if (t.idField)
        for (const v of BAD_IDS)
          cases.push([`bad id ${JSON.stringify(v).slice(0, 40)}`, withField(t.idField, v), [...expect400, 413]]);
      for (const s of ODD_TEXTS)
        cases.push([`odd text ${s.slice(0, 20)}`, withField(t.textField, s), [...t.baseStatus, 400, 413]]);

      const answers = await Promise.all(cases.map(([, body, , extra]) => probe(body, extra)));
      answers.forEach((a, i) => problems.check(`${t.fn} ${cases[i]![0]}`, a, cases[i]![2]));

      // The same body declared in the wrong content type is read as JSON or refused, never a 5xx.
      const plain = await probe(JSON.stringify(t.base), { contentType: "text/plain" });
      problems.check(`${t.fn} text/plain`, plain, [...t.baseStatus, 400, 415]);

      // Megabytes: refused by size, without reading them whole.
      const size = t.huge === "20mb" ? 20 * 1024 * 1024 : 2 * 1024 * 1024;
      const huge = await probe(JSON.stringify({ ...t.base, [t.textField]: "x".repeat(size) }));
      // Past 10 MB the gateway refuses first (stack/gateway: its own {code, message} shape).
      problems.check(`${t.fn} ${size} bytes`, huge, [413, ...(t.before ?? [])], size > 10 * 1024 * 1024);
    }),
  );
  problems.done();
});

/** How each function answers the caller's identity, with no body worth reading. */
interface AuthRow {
  fn: string;
  path?: string;
  method: string;
  body?: string;
  /**
   * Statuses for: neither apikey nor Authorization (`none`), garbage token (and an 8k-character
   * one), the anon key, a user. With the apikey header alone the gateway, as hosted Supabase's,
   * treats the anon key as the caller: that is the `anon` row.
   */
  none: number[];
  garbage: number[];
  anon: number[];
  user: number[];
}

const UNAUTHED = [401];
const AUTH_ROWS: AuthRow[] = [
  { fn: "account-delete", method: "POST", body: "{}", none: UNAUTHED, garbage: UNAUTHED, anon: UNAUTHED, user: [400] },
  { fn: "account-notice", method: "POST", body: "{}", none: UNAUTHED, garbage: UNAUTHED, anon: [400], user: [400] },
  { fn: "admin", method: "POST", body: "{}", none: UNAUTHED, garbage: UNAUTHED, anon: UNAUTHED, user: [403] },
  { fn: "admin-platform", method: "GET", none: UNAUTHED, garbage: UNAUTHED, anon: UNAUTHED, user: [403] },
  {
    fn: "api",
    path: "/v1/chat",
    method: "POST",
    body: "{}",
    none: UNAUTHED,
    garbage: UNAUTHED,
    anon: UNAUTHED,
    user: UNAUTHED,
  },
  {
    fn: "billing",
    path: "/checkout",
    method: "POST",
    body: "{}",
    none: UNAUTHED,
    garbage: UNAUTHED,
    anon: [400],
    user: [400],
  },
  {
    fn: "billing",
    path: "/tick",
    method: "POST",
    body: "{}",
    none: UNAUTHED,
    garbage: UNAUTHED,
    anon: [403],
    user: [403],
  },
  { fn: "bot-login", method: "POST", body: "{}", none: UNAUTHED, garbage: UNAUTHED, anon: [400], user: [400] },
  { fn: "channels-connect", method: "POST", body: "{}", none: UNAUTHED, garbage: UNAUTHED, anon: [400], user: [400] },
  { fn: "chat", method: "POST", body: "{}", none: UNAUTHED, garbage: UNAUTHED, anon: UNAUTHED, user: [400] },
  {
    fn: "deliver",
    path: "/tick",
    method: "POST",
    body: "{}",
    none: UNAUTHED,
    garbage: UNAUTHED,
    anon: [403],
    user: [403],
  },
  {
    fn: "ingest",
    path: "/tick",
    method: "POST",
    body: "{}",
    none: UNAUTHED,
    garbage: UNAUTHED,
    anon: [403],
    user: [403],
  },
  {
    fn: "ingest",
    path: `/sources/${NIL}/sync`,
    method: "POST",
    body: "{}",
    none: UNAUTHED,
    garbage: UNAUTHED,
    anon: [404],
    user: [404],
  },
  {
    fn: "notion-connect",
    path: "/start",
    method: "POST",
    body: "{}",
    none: UNAUTHED,
    garbage: UNAUTHED,
    anon: [400, 401, 503],
    user: [400, 503],
  },
  {
    fn: "power-ups",
    path: "/test",
    method: "POST",
    body: "{}",
    none: UNAUTHED,
    garbage: UNAUTHED,
    anon: UNAUTHED,
    user: [400],
  },
  {
    fn: "tasks",
    path: "/tick",
    method: "POST",
    body: "{}",
    none: UNAUTHED,
    garbage: UNAUTHED,
    anon: [403],
    user: [403],
  },
  {
    fn: "tasks",
    path: "/validate",
    method: "POST",
    body: "{}",
    none: UNAUTHED,
    garbage: UNAUTHED,
    anon: UNAUTHED,
    user: [400],
  },
  { fn: "team-invite", method: "POST", body: "{}", none: UNAUTHED, garbage: UNAUTHED, anon: [400], user: [400] },
  {
    fn: "tests",
    path: "/tick",
    method: "POST",
    body: "{}",
    none: UNAUTHED,
    garbage: UNAUTHED,
    anon: [403],
    user: [403],
  },
  {
    fn: "tests",
    path: `/runs/${NIL}/cancel`,
    method: "POST",
    body: "{}",
    none: UNAUTHED,
    garbage: UNAUTHED,
    anon: [404],
    user: [404],
  },
  {
    fn: "transcript",
    path: `?chat_id=${NIL}`,
    method: "GET",
    none: UNAUTHED,
    garbage: UNAUTHED,
    anon: [404],
    user: [404],
  },
  // Open to anyone (signed by the platform, or analytics): the caller's token does not matter.
  { fn: "event", method: "POST", body: "{}", none: [400], garbage: [400], anon: [400], user: [400] },
  { fn: "stripe-webhook", method: "POST", body: "{}", none: [400], garbage: [400], anon: [400], user: [400] },
  {
    fn: "channels",
    path: `/${NIL}/telegram`,
    method: "POST",
    body: "{}",
    none: [404],
    garbage: [404],
    anon: [404],
    user: [404],
  },
];

Deno.test("hostile callers: missing, garbage and oversized tokens, the anon key without a user", async () => {
  await tokensOf();
  const problems = new Problems();
  const probes = AUTH_ROWS.flatMap((r) =>
    (["bare", "none", "garbage", "long", "anon", "user"] as const).map((auth) => ({
      r,
      auth,
      expected: auth === "long" ? r.garbage : auth === "none" ? r.anon : auth === "bare" ? r.none : r[auth],
    })),
  );
  const answers = await Promise.all(
    probes.map(({ r, auth }) => send({ fn: r.fn, path: r.path, method: r.method, body: r.body, auth })),
  );
  answers.forEach((a, i) => {
    const { r, auth, expected } = probes[i]!;
    problems.check(`${r.fn}${r.path ?? ""} as ${auth}`, a, expected, r.fn === "deliver" && a.status === 401);
  });
  problems.done();
});

/** Routes and methods no function has. */
const METHOD_ROWS: { fn: string; path?: string; allowed: string[] }[] = [
  { fn: "account-delete", allowed: ["POST"] },
  { fn: "account-notice", allowed: ["POST"] },
  { fn: "admin", allowed: ["POST"] },
  { fn: "admin-platform", allowed: ["GET"] },
  { fn: "api", path: "/v1/chat", allowed: ["POST"] },
  { fn: "api", path: "/v1/openapi.json", allowed: ["GET"] },
  { fn: "billing", path: "/checkout", allowed: ["POST"] },
  { fn: "bot-login", allowed: ["POST"] },
  { fn: "channels", path: `/${NIL}/telegram`, allowed: ["POST", "GET"] },
  { fn: "channels-connect", allowed: ["POST"] },
  { fn: "chat", allowed: ["POST"] },
  { fn: "deliver", path: "/tick", allowed: ["POST"] },
  { fn: "event", allowed: ["POST"] },
  { fn: "health-check", allowed: ["GET", "POST"] },
  { fn: "ingest", path: "/tick", allowed: ["POST"] },
  { fn: "notion-connect", path: "/start", allowed: ["POST"] },
  { fn: "power-ups", path: "/reply", allowed: ["POST"] },
  { fn: "stripe-webhook", allowed: ["POST"] },
  { fn: "tasks", path: "/validate", allowed: ["POST"] },
  { fn: "team-invite", allowed: ["POST"] },
  { fn: "tests", path: `/bots/${NIL}/runs`, allowed: ["POST"] },
  { fn: "transcript", path: `?chat_id=${NIL}`, allowed: ["GET"] },
];

Deno.test("hostile methods: PUT, DELETE, PATCH are 405 everywhere; unknown routes 404", async () => {
  await tokensOf();
  const problems = new Problems();
  const probes = METHOD_ROWS.flatMap((r) => ["PUT", "DELETE", "PATCH"].map((method) => ({ r, method })));
  const answers = await Promise.all(
    probes.map(({ r, method }) =>
      send({
        fn: r.fn,
        path: r.path,
        method,
        body: "{}",
        auth: r.fn === "deliver" ? "service" : r.fn === "api" ? "apikey" : "user",
      }),
    ),
  );
  answers.forEach((a, i) =>
    problems.check(`${probes[i]!.method} ${probes[i]!.r.fn}${probes[i]!.r.path ?? ""}`, a, [405]),
  );

  const routes: [string, string, string, Auth][] = [
    ["api", "/v2/chat", "POST", "apikey"],
    ["api", "/..%2F..%2Fetc%2Fpasswd", "GET", "apikey"],
    ["billing", "/nope", "POST", "user"],
    ["billing", "/..%2F..%2Fetc%2Fpasswd", "POST", "user"],
    ["channels", "/not-a-uuid/telegram", "POST", "none"],
    ["channels", `/${NIL}/myspace`, "POST", "none"],
    ["channels", `/${NIL}/telegram/extra/parts`, "POST", "none"],
    ["channels", "/%00/telegram", "POST", "none"],
    ["deliver", "/nope", "POST", "service"],
    ["ingest", "/sources/not-a-uuid/sync", "POST", "owner"],
    ["ingest", "/sources/' OR 1=1 --/sync", "POST", "owner"],
    ["ingest", "/nope", "POST", "owner"],
    ["notion-connect", "/nope", "POST", "owner"],
    ["power-ups", "/nope", "POST", "owner"],
    ["tasks", "/nope", "POST", "user"],
    ["tests", "/bots/not-a-uuid/runs", "POST", "owner"],
    ["tests", "/runs/%00/cancel", "POST", "owner"],
    ["tests", "/nope", "POST", "owner"],
  ];
  const routed = await Promise.all(
    routes.map(([fn, path, method, auth]) =>
      send({ fn, path, method, auth, body: method === "GET" ? undefined : "{}" }),
    ),
  );
  routed.forEach((a, i) => problems.check(`${routes[i]![2]} ${routes[i]![0]}${routes[i]![1]}`, a, [404]));
  problems.done();
});

Deno.test("hostile queries: transcript's chat_id and format; channels' GET; the open answers stay 200", async () => {
  await tokensOf();
  const problems = new Problems();
  const queries = [
    "",
    "?chat_id=",
    "?chat_id=not-a-uuid",
    "?chat_id=%00",
    "?chat_id=%ED%A0%80",
    `?chat_id=${NIL}&format=exe`,
    `?chat_id=${"x".repeat(6000)}`,
    "?chat_id=' OR 1=1 --",
  ];
  const answers = await Promise.all(
    queries.map((q) => send({ fn: "transcript", path: q, method: "GET", auth: "user" })),
  );
  answers.forEach((a, i) => problems.check(`transcript ${queries[i]!.slice(0, 40)}`, a, [400]));
  const channelGet = await send({
    fn: "channels",
    path: `/${NIL}/whatsapp?hub.mode=subscribe&hub.challenge=%00`,
    method: "GET",
    auth: "none",
  });
  problems.check("channels GET", channelGet, [404]);

  // What answers 200 to anyone, whatever the token.
  for (const auth of ["bare", "none", "garbage", "anon"] as const) {
    problems.check(`health-check as ${auth}`, await send({ fn: "health-check", method: "GET", auth }), [200]);
    problems.check(
      `openapi as ${auth}`,
      await send({ fn: "api", path: "/v1/openapi.json", method: "GET", auth }),
      [200],
    );
    const config = await send({ fn: "billing", path: "/config", method: "GET", auth });
    // billing/config is behind the caller check: with no key at all, 401.
    problems.check(`billing/config as ${auth}`, config, auth === "garbage" || auth === "bare" ? UNAUTHED : [200]);
  }
  problems.done();
});

Deno.test("hostile sizes: the signed receivers refuse megabytes before reading them", async () => {
  await tokensOf();
  const problems = new Problems();
  const big = JSON.stringify({ update_id: 1, message: "x".repeat(2 * 1024 * 1024) });
  const channel = await send({ fn: "channels", path: `/${NIL}/telegram`, auth: "none", body: big });
  problems.check("channels 2 MB", channel, [413]);
  const stripe = await send({
    fn: "stripe-webhook",
    auth: "none",
    body: big,
    headers: { "stripe-signature": "t=1,v1=00" },
  });
  problems.check("stripe-webhook 2 MB", stripe, [413]);
  const forged = await send({
    fn: "stripe-webhook",
    auth: "none",
    body: '{"id":"evt_1","type":"invoice.paid"}',
    headers: { "stripe-signature": "t=1,v1=00" },
  });
  problems.check("stripe-webhook forged", forged, [400]);
  const nul = await send({
    fn: "stripe-webhook",
    auth: "none",
    body: "{}",
    headers: { "stripe-signature": "t=%00,v1=<script>" },
  });
  problems.check("stripe-webhook odd signature", nul, [400]);
  problems.done();
});

Deno.test("hostile values that pass JSON: event props and cuts, test-case CSV, numbers, clocks, API keys", async () => {
  await tokensOf();
  const problems = new Problems();
  const event = (body: unknown) => send({ fn: "event", auth: "none", body: JSON.stringify(body) });
  const url = "https://hostile.test/page";
  // Plausible's props as a JSON string (parsed by the schema, after the body's check).
  problems.check("event props string NUL", await event({ n: "x", u: url, p: JSON.stringify({ k: "a\u0000" }) }), [400]);
  problems.check(
    "event props string surrogate",
    await event({ n: "x", u: url, p: JSON.stringify({ k: "\udc00" }) }),
    [400],
  );
  problems.check(
    "event props string key NUL",
    await event({ n: "x", u: url, p: JSON.stringify({ "k\u0000": "v" }) }),
    [400],
  );
  // Values cut at 500 (props) and 2048 (url, referrer) characters: a pair across the cut is kept whole or dropped.
  problems.check(
    "event prop cut in a pair",
    await event({ n: "x", u: url, props: { k: "a".repeat(499) + "😀" } }),
    [202],
  );
  problems.check("event referrer cut in a pair", await event({ n: "x", u: url, r: "b".repeat(2047) + "😀" }), [202]);
  problems.check("event huge width", await event({ n: "x", u: url, w: 1e308 }), [400]);
  problems.check("event negative width", await event({ n: "x", u: url, w: -1 }), [400]);
  problems.check("event revenue NaN", await event({ n: "x", u: url, $: { currency: "EUR", amount: "NaN" } }), [400]);
  problems.check(
    "event 31 props",
    await event({ n: "x", u: url, props: Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`k${i}`, i])) }),
    [400],
  );
  const stored = await sql<{ n: number; longest: number }>(
    "select count(*)::int as n, max(length(props::text))::int as longest from public.events where name = 'x' and url like 'https://hostile.test/%'",
  ).catch(() => [{ n: -1, longest: 0 }]);
  if (stored[0]!.n !== 2)
    problems.list.push(`event: the 2 events cut inside a pair should be stored, found ${stored[0]!.n}`);

  // Test-case CSV, as text/csv and as {"csv"}.
  const importPath = `/bots/${DEMO.helpCenterBot}/import`;
  const csv = (body: string, contentType: string) =>
    send({ fn: "tests", path: importPath, auth: "owner", body, contentType });
  problems.check("tests csv NUL", await csv("question,expected\nhi\u0000there,ok\n", "text/csv"), [400]);
  problems.check(
    "tests csv json NUL",
    await csv(JSON.stringify({ csv: "question\nhi\u0000there\n" }), "application/json"),
    [400],
  );
  problems.check(
    "tests csv json surrogate",
    await csv(JSON.stringify({ csv: "question\n\ud800\n" }), "application/json"),
    [400],
  );
  problems.check("tests csv json null", await csv("null", "application/json"), [400]);
  problems.check("tests csv json number", await csv(JSON.stringify({ csv: 5 }), "application/json"), [400]);
  problems.check("tests csv binary", await csv("\u0001\u0002,\u0003\n\u0004", "text/csv"), [400]);

  // Numbers and times that pass JSON but not sense.
  for (const hours of [-1, 0, 1.5, HUGE, "12", 876001]) {
    const a = await send({
      fn: "admin",
      auth: "platform",
      body: jsonWith({ action: "ban", user_id: NIL, hours }),
    });
    problems.check(`admin ban hours ${String(hours)}`, a, [400]);
  }
  // The schedulers' clocks (service role only): a date that does not exist is refused or ignored, never a 500.
  for (const [fn, path] of [
    ["deliver", "/tick"],
    ["tasks", "/tick"],
  ]) {
    for (const now of [
      "2026-02-31T00:00:00Z",
      "2026-13-01T00:00:00Z",
      "+275760-09-13T00:00:00.001Z",
      "0000-00-00T00:00:00Z",
      HUGE,
    ]) {
      const a = await send({ fn: fn!, path, auth: "service", body: jsonWith({ now }) });
      problems.check(`${fn} now ${String(now)}`, a, [200, 400]);
    }
  }
  // API keys: well-formed but unknown, in either header.
  const apiCall = (headers: Record<string, string>) =>
    send({ fn: "api", path: "/v1/chat", auth: "bare", body: JSON.stringify({ message: "hi" }), headers });
  problems.check("api unknown key", await apiCall({ authorization: `Bearer pk_${"a".repeat(30)}` }), UNAUTHED);
  problems.check("api x-api-key garbage", await apiCall({ "x-api-key": "'; drop table api_keys; --" }), UNAUTHED);
  problems.check("api two bearers", await apiCall({ authorization: "Bearer a Bearer b" }), UNAUTHED);
  problems.check(
    "transcript lang",
    await send({ fn: "transcript", path: `?chat_id=${NIL}&lang=..%2F%00`, method: "GET" }),
    [404],
  );
  problems.done();
});

Deno.test("hostile addresses and long keys: a rate-limit key stays one the database takes", async () => {
  await tokensOf();
  const problems = new Problems();
  // The suite's stack trusts X-Forwarded-For (PARLEY_TRUST_FORWARDED_FOR=1, as behind a proxy that
  // passes the client's own header on): its first entry becomes x-real-ip.
  const addresses = [
    "x".repeat(5000),
    "999.999.999.999",
    "::ffff:1.2.3.4:5",
    "' OR 1=1 --",
    "ä".repeat(3000),
    ":::::::::",
    "1.2.3.4, 5.6.7.8",
  ];
  for (const ip of addresses) {
    const body = JSON.stringify({ n: "hostile-ip", u: "https://hostile.test/ip" });
    const a = await send({ fn: "event", auth: "none", body, headers: { "x-forwarded-for": ip } });
    problems.check(`event from ${JSON.stringify(ip.slice(0, 20))}`, a, [202, 400, 429]);
    const b = await send({
      fn: "bot-login",
      auth: "user",
      body: JSON.stringify({ bot_id: NIL, password: "x" }),
      headers: { "x-forwarded-for": ip },
    });
    problems.check(`bot-login from ${JSON.stringify(ip.slice(0, 20))}`, b, [404, 429]);
    const c = await send({
      fn: "chat",
      auth: "user",
      body: JSON.stringify({ bot_id: NIL, message: "hi" }),
      headers: { "x-forwarded-for": ip },
    });
    problems.check(`chat from ${JSON.stringify(ip.slice(0, 20))}`, c, [404, 429]);
    const d = await send({
      fn: "api",
      path: "/v1/chat",
      auth: "apikey",
      body: JSON.stringify({ message: "hi", bot_id: NIL }),
      headers: { "x-forwarded-for": ip },
    });
    problems.check(`api from ${JSON.stringify(ip.slice(0, 20))}`, d, [403, 429]);
  }
  // A valid address of 313 characters is a rate-limit key too (the database takes at most 300).
  const long = `${"a".repeat(64)}@${`${"b".repeat(60)}.`.repeat(4)}test`;
  problems.check(
    "account-notice long e-mail",
    await send({ fn: "account-notice", auth: "anon", body: JSON.stringify({ email: long }) }),
    [202],
  );
  problems.done();
});
