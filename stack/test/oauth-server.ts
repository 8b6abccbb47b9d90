// A local OAuth2 / OpenID provider for tests, speaking the wire protocol of Google
// (/google: o/oauth2/auth, o/oauth2/token, userinfo/v2/me) and Notion (/notion:
// v1/oauth/authorize, v1/oauth/token with Basic auth, v1/users/me). The consent
// page is a form; a test "signs in" by posting it with the email it wants.
import crypto from "node:crypto";
import http from "node:http";

export interface OAuthClient {
  clientId: string;
  secret: string;
}

export const OAUTH_CLIENTS: Record<"google" | "notion", OAuthClient> = {
  google: { clientId: "parley-test-google-client", secret: "google-test-secret" },
  notion: { clientId: "parley-test-notion-client", secret: "notion-test-secret" },
};

interface Person {
  email: string;
  name: string;
  verified: boolean;
}

interface Grant {
  provider: "google" | "notion";
  person: Person;
  redirectUri: string;
  clientId: string;
}

export interface OAuthServer {
  url: string;
  close(): Promise<void>;
}

const idOf = (email: string) => crypto.createHash("sha256").update(email).digest("hex").slice(0, 21);
const uuidOf = (email: string) => {
  const h = crypto.createHash("sha256").update("notion:" + email).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
};

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let s = "";
    req.on("data", (c) => (s += c));
    req.on("end", () => resolve(s));
    req.on("error", reject);
  });
}

function json(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startOAuthServer(): Promise<OAuthServer> {
  const codes = new Map<string, Grant>();
  const tokens = new Map<string, Grant>();

  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://x");
      const p = url.pathname;
      const provider = p.startsWith("/google/") ? "google" : p.startsWith("/notion/") ? "notion" : null;
      if (!provider) return json(res, 404, { error: "not_found" });
      const client = OAUTH_CLIENTS[provider];

      // Consent page (GET) and its form (POST).
      if (p === "/google/o/oauth2/auth" || p === "/notion/v1/oauth/authorize") {
        if (req.method === "GET") {
          if (url.searchParams.get("client_id") !== client.clientId || url.searchParams.get("response_type") !== "code") {
            return json(res, 400, { error: "invalid_request", error_description: "unknown client or response type" });
          }
          const hidden = ["client_id", "redirect_uri", "state"].map((k) => `<input type="hidden" name="${k}" value="${esc(url.searchParams.get(k) ?? "")}">`).join("");
          res.writeHead(200, { "content-type": "text/html" });
          return res.end(`<form method="post">${hidden}<input name="email"><input name="name"><button>Allow</button><button name="deny" value="1">Deny</button></form>`);
        }
        const form = new URLSearchParams(await readBody(req));
        const redirectUri = form.get("redirect_uri") ?? "";
        const back = new URL(redirectUri);
        back.searchParams.set("state", form.get("state") ?? "");
        if (form.get("deny")) {
          back.searchParams.set("error", "access_denied");
          back.searchParams.set("error_description", "The user denied access");
        } else {
          const code = crypto.randomBytes(16).toString("hex");
          const email = form.get("email") ?? "";
          codes.set(code, { provider, clientId: form.get("client_id") ?? "", redirectUri, person: { email, name: form.get("name") || email.split("@")[0]!, verified: form.get("unverified") !== "1" } });
          back.searchParams.set("code", code);
        }
        res.writeHead(302, { location: back.toString() });
        return res.end();
      }

      if (req.method === "POST" && (p === "/google/o/oauth2/token" || p === "/notion/v1/oauth/token")) {
        const raw = await readBody(req);
        let params: Record<string, string>;
        let clientId: string | undefined;
        let secret: string | undefined;
        if (provider === "notion") {
          // Notion: JSON body, client credentials in HTTP Basic auth.
          params = JSON.parse(raw);
          const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "")?.[1];
          [clientId, secret] = basic ? Buffer.from(basic, "base64").toString().split(":") : [];
        } else {
          params = Object.fromEntries(new URLSearchParams(raw));
          clientId = params.client_id;
          secret = params.client_secret;
        }
        if (clientId !== client.clientId || secret !== client.secret) return json(res, 401, { error: "invalid_client" });
        const grant = codes.get(params.code ?? "");
        codes.delete(params.code ?? "");
        if (params.grant_type !== "authorization_code" || !grant || grant.provider !== provider || grant.redirectUri !== params.redirect_uri) {
          return json(res, 400, { error: "invalid_grant", error_description: "Bad code or redirect_uri" });
        }
        const accessToken = crypto.randomBytes(20).toString("hex");
        tokens.set(accessToken, grant);
        if (provider === "google") {
          return json(res, 200, { access_token: accessToken, token_type: "Bearer", expires_in: 3599, refresh_token: "g-refresh-" + accessToken.slice(0, 8), scope: "email profile" });
        }
        const person = grant.person;
        return json(res, 200, {
          access_token: accessToken, token_type: "bearer", bot_id: uuidOf("bot:" + person.email), workspace_id: uuidOf("ws"), workspace_name: "Test workspace",
          owner: { type: "user", user: { object: "user", id: uuidOf(person.email), name: person.name, avatar_url: null, type: "person", person: { email: person.email } } },
        });
      }

      const grant = tokens.get(/^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "");
      if (req.method === "GET" && p === "/google/userinfo/v2/me") {
        if (!grant || grant.provider !== "google") return json(res, 401, { error: { code: 401, message: "Invalid Credentials" } });
        const u = grant.person;
        return json(res, 200, { id: idOf(u.email), email: u.email, verified_email: u.verified, name: u.name, picture: `https://example.test/${idOf(u.email)}.png` });
      }
      if (req.method === "GET" && p === "/notion/v1/users/me") {
        if (!grant || grant.provider !== "notion") return json(res, 401, { object: "error", status: 401, code: "unauthorized", message: "API token is invalid." });
        if (!req.headers["notion-version"]) return json(res, 400, { object: "error", status: 400, code: "missing_version", message: "Notion-Version header failed validation" });
        const u = grant.person;
        return json(res, 200, {
          object: "user", id: uuidOf("bot:" + u.email), type: "bot", name: "Parley",
          bot: { owner: { type: "user", user: { object: "user", id: uuidOf(u.email), name: u.name, avatar_url: null, type: "person", person: { email: u.email } } } },
        });
      }
      json(res, 404, { error: "not_found" });
    } catch (e) {
      json(res, 400, { error: "invalid_request", error_description: String(e) });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    close: () => new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }),
  };
}
