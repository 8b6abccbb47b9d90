// The error page for 404s, failed validation, guards and any unhandled error: the message
// (fallback: the status text) as a large heading and one button back to the home page.
import { useContext } from "react";
import { IntlContext } from "react-intl";
import { isRouteErrorResponse, useLocation, useNavigate, useRouteError } from "react-router";
import { langOf, localeFromPath } from "../i18n/locales";
import { DocumentHead } from "./head";

const STATUS_TEXT: Record<number, string> = { 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 500: "Internal Server Error", 503: "Service Unavailable" };

export interface ErrorInfo {
  status: number;
  message: string;
  code?: string;
  path?: string;
}

export function describeError(error: unknown): ErrorInfo {
  if (isRouteErrorResponse(error)) {
    const d = (error.data ?? {}) as { code?: string; path?: string };
    return { status: error.status, message: error.statusText || STATUS_TEXT[error.status] || `Error ${error.status}`, code: d.code, path: d.path };
  }
  if (error instanceof Error) return { status: 500, message: error.message || STATUS_TEXT[500]!, code: (error as { code?: string }).code };
  return { status: 500, message: STATUS_TEXT[500]! };
}

export function ErrorPage() {
  const error = useRouteError();
  const navigate = useNavigate();
  const location = useLocation();
  const intl = useContext(IntlContext);
  const info = describeError(error);
  let heading = info.message;
  if (intl && info.path && info.code === "not_found") heading = intl.formatMessage({ id: "error.notFound" }, { path: info.path });
  if (intl && info.path && info.code === "invalid_params") heading = intl.formatMessage({ id: "error.invalidParams" }, { path: info.path });
  const button = intl ? intl.formatMessage({ id: "error.returnHome" }) : "Return to home";
  if (import.meta.env.DEV && !isRouteErrorResponse(error)) console.error(error);
  return (
    <main className="error-page" data-status={info.status}>
      {intl && <DocumentHead title={heading} lang={langOf(localeFromPath(location.pathname))} links={[]} />}
      <p className="error-page__status">{info.status}</p>
      <h1 className="error-page__title">{heading}</h1>
      {/* Navigating clears the router's error state. */}
      <button type="button" className="btn btn--primary btn--lg" onClick={() => navigate("/", { replace: true })}>
        {button}
      </button>
    </main>
  );
}
