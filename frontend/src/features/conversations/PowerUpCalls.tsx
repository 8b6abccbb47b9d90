// The power-up calls behind an answer, in full for the team: arguments, the request as sent
// (secrets already masked by the engine) and the result the bot read. All shown as text.
import { FormattedMessage, FormattedNumber } from "react-intl";
import type { Json } from "../../lib/database";
import { jsonObject, jsonString } from "../../lib/json";
import type { PowerUpCall } from "../../data/chats/types";

function requestText(request: Json | null): string | null {
  const r = jsonObject(request);
  const method = jsonString(r.method);
  const url = jsonString(r.url);
  if (!method || !url) return null;
  const headers = Object.entries(jsonObject(r.headers)).map(([k, v]) => `${k}: ${jsonString(v) ?? ""}`);
  const body = jsonString(r.body);
  return [`${method} ${url}`, ...headers, ...(body ? ["", body] : [])].join("\n");
}

/** `live`: the calls of an answer still being written, shown open as they arrive. */
export function PowerUpCalls({ calls, live = false }: { calls: PowerUpCall[]; live?: boolean }) {
  if (!calls.length) return null;
  return (
    <details className="conv-msg__calls" open={live || undefined}>
      <summary>
        <FormattedMessage id={live ? "conversations.calls.live" : "conversations.calls.summary"} values={{ count: calls.length }} />
      </summary>
      <ol>
        {calls.map((c) => {
          const request = requestText(c.request);
          return (
            <li key={c.id}>
              <p className="conv-call__head">
                <strong>{c.name}</strong>{" "}
                <span className={`badge conv-call__status conv-call__status--${c.status === "ok" ? "ok" : "error"}`}>
                  {c.status === "ok" ? <FormattedMessage id="conversations.calls.ok" /> : <FormattedMessage id="conversations.calls.failed" values={{ code: c.error_code ?? "error" }} />}
                </span>
                {c.duration_ms !== null && (
                  <>
                    {" "}
                    <FormattedMessage id="conversations.calls.duration" values={{ ms: <FormattedNumber key="ms" value={c.duration_ms} /> }} />
                  </>
                )}
              </p>
              <h5><FormattedMessage id="conversations.calls.arguments" /></h5>
              <pre className="conv-call__pre">{JSON.stringify(c.arguments, null, 2)}</pre>
              {request && (
                <>
                  <h5><FormattedMessage id="conversations.calls.request" /></h5>
                  <pre className="conv-call__pre">{request}</pre>
                </>
              )}
              {c.result && (
                <>
                  <h5><FormattedMessage id="conversations.calls.result" /></h5>
                  <pre className="conv-call__pre">{c.result}</pre>
                </>
              )}
            </li>
          );
        })}
      </ol>
    </details>
  );
}
