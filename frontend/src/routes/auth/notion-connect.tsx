// Connecting Notion to a new data source, server-side OAuth (the notion-connect function):
//   form "Connect Notion" → /app/auth/providers/notion?connect=1&redirect=<form>  (NotionConnectStart)
//   → Notion's consent page → /app/auth/providers/notion/callback?code&state      (NotionConnectCallback)
//   → back to the form with ?notion_connection=<id>, where features/knowledge's NotionPicker lists
// the workspace. The owner's Parley session is never touched, and the browser never holds the
// Notion token. These two screens use the auth screens' card and the knowledge error texts.
import { useEffect, useState } from "react";
import { FormattedMessage } from "react-intl";
import { useNavigate, useSearchParams } from "react-router";
import { buttonClassName, Loading } from "../../components/ui";
import { exchangeNotionConnect, NOTION_CALLBACK_PATH, startNotionConnect, type NotionConnected } from "../../data/dataSources/notion-connect";
import { AuthCard, FormAlert } from "../../features/auth/ui";
import { useAuthDeps } from "../../features/auth/deps";
import { ErrorText } from "../../features/knowledge/badges";
import { defaultAfterLogin, safeRedirect } from "../../lib/redirect";
import { LocalizedLink, useLocale } from "../../components/LocalizedLink";

/** `path` with one query parameter set. */
export function withParam(path: string, key: string, value: string): string {
  const u = new URL(path, "http://parley.invalid");
  u.searchParams.set(key, value);
  return u.pathname + u.search + u.hash;
}

/** /app/auth/providers/notion?connect=1: asks the function for Notion's consent URL and goes there. */
export function NotionConnectStart({ redirect }: { redirect: string | null }) {
  const locale = useLocale();
  const { siteUrl } = useAuthDeps();
  const [failure, setFailure] = useState<unknown>(null);
  const back = safeRedirect(redirect, defaultAfterLogin(locale));
  useEffect(() => {
    let cancelled = false;
    startNotionConnect(`${siteUrl().replace(/\/+$/, "")}${NOTION_CALLBACK_PATH}`, back)
      .then(({ url }) => !cancelled && window.location.assign(url))
      .catch((e) => !cancelled && setFailure(e));
    return () => {
      cancelled = true;
    };
  }, [back, siteUrl]);
  return <ConnectCard failure={failure ? { error: failure, back } : null} lead="knowledge.notion.connecting.text" />;
}

/** The auth-area card of both steps: a lead and a spinner, or what failed and a way back. */
function ConnectCard({ failure, lead }: { failure: { error: unknown; back: string | null } | null; lead: string }) {
  return (
    <AuthCard title="knowledge.notion.connecting.title">
      {failure ? (
        <>
          <FormAlert testId="notion-connect-error">
            <ErrorText error={failure.error} />
          </FormAlert>
          <LocalizedLink to={failure.back ?? "/app/bots"} className={buttonClassName({ block: true, theme: "secondary" })}>
            <FormattedMessage id="knowledge.notion.back" />
          </LocalizedLink>
        </>
      ) : (
        <>
          <p className="auth-card__lead">
            <FormattedMessage id={lead} />
          </p>
          <Loading />
        </>
      )}
    </AuthCard>
  );
}

// One exchange per state, even when an effect runs twice (React's strict mode, a re-render).
const exchanges = new Map<string, Promise<NotionConnected>>();

/** The callback with Notion's ?code&state (or ?error&state): finishes the connection, back to the form. */
export function NotionConnectCallback() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const locale = useLocale();
  const [failure, setFailure] = useState<{ error: unknown; back: string | null } | null>(null);
  useEffect(() => {
    const state = params.get("state") ?? "";
    const code = params.get("code");
    const error = params.get("error");
    let pending = exchanges.get(state);
    if (!pending) {
      pending = exchangeNotionConnect({
        state,
        ...(code ? { code } : {}),
        ...(error || !code ? { error: error ?? "invalid_request", error_description: params.get("error_description") ?? undefined } : {}),
      });
      exchanges.set(state, pending);
    }
    let cancelled = false;
    pending
      .then((c) => {
        if (cancelled) return;
        const to = safeRedirect(c.return_path, defaultAfterLogin(locale));
        void navigate(withParam(to, "notion_connection", c.connection_id), { replace: true });
      })
      .catch((e) => {
        if (cancelled) return;
        const back = (e as { details?: { return_path?: unknown } }).details?.return_path;
        setFailure({ error: e, back: typeof back === "string" ? safeRedirect(back, defaultAfterLogin(locale)) : null });
      });
    return () => {
      cancelled = true;
    };
  }, [params, navigate, locale]);
  return <ConnectCard failure={failure} lead="knowledge.notion.finishing" />;
}

