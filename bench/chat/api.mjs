// The REST calls the benchmarks make against a stack (env of scripts/with-stack.mjs): one
// request helper, an owner with a team and a public bot, a text source indexed by `ingest`.
const { SUPABASE_URL: api, SUPABASE_ANON_KEY: anonKey, SUPABASE_SERVICE_ROLE_KEY: serviceKey } = process.env;
export { anonKey, api, serviceKey };

export async function call(method, p, { token = anonKey, body, prefer, accept } = {}) {
  const res = await fetch(`${api}${p}`, {
    method,
    headers: {
      apikey: anonKey,
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      ...(prefer ? { prefer } : {}),
      ...(accept ? { accept } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

export const PASSWORD = "bench-password-123";

/** A confirmed e-mail user; returns their access token. */
export async function userToken(prefix) {
  const email = `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2)}@parley.test`;
  await call("POST", "/auth/v1/admin/users", {
    token: serviceKey,
    body: { email, password: PASSWORD, email_confirm: true },
  });
  return (await call("POST", "/auth/v1/token?grant_type=password", { body: { email, password: PASSWORD } }))
    .access_token;
}

/** An owner, their team and a public English bot with the extractive default. */
export async function ownerWithBot(name) {
  const token = await userToken("bench-owner");
  const team = await call("POST", "/rest/v1/rpc/create_team", { token, body: { name } });
  const [bot] = await call("POST", "/rest/v1/bots", {
    token,
    prefer: "return=representation",
    body: { team_id: team.id, name, language: "en", visibility: "public" },
  });
  return { token, bot };
}

/** A `text` data source, indexed through the real `ingest` function (waits for the job). */
export async function ingestText(token, botId, title, text) {
  const [source] = await call("POST", "/rest/v1/data_sources", {
    token,
    prefer: "return=representation",
    body: { bot_id: botId, type: "text", name: title, settings: { text, title } },
  });
  const { job_id } = await call("POST", `/functions/v1/ingest/sources/${source.id}/sync`, { token, body: {} });
  for (;;) {
    const [job] = await call("GET", `/rest/v1/ingestion_jobs?id=eq.${job_id}&select=status,errors`, {
      token: serviceKey,
    });
    if (job.status === "succeeded") return;
    if (!["queued", "running"].includes(job.status))
      throw new Error(`${title}: ${job.status} ${JSON.stringify(job.errors)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
