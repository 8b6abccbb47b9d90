// Who the host site says the visitor is: `Parley.identify({ name, email, ... })` on the page that
// embeds the widget. The loader posts it into the chat's iframe; the chat keeps it on the visitor's
// own chat (chats.visitor, which the owner sees in Conversations, marked as the site's word) and
// fills the lead form with it. It is the host page's claim, never a proof of identity.
import { createContext, useContext, useEffect, useState } from "react";

export type VisitorIdentity = Record<string, string | number | boolean>;

const KEY = /^[A-Za-z][A-Za-z0-9_.-]{0,39}$/;
export const IDENTITY_MAX_KEYS = 20;
export const IDENTITY_MAX_VALUE = 200;

/** Keeps what can be shown and stored safely: up to 20 plain keys with short scalar values. */
export function sanitizeIdentity(input: unknown): VisitorIdentity | null {
  if (!input || typeof input !== "object" || Array.isArray(input)) return null;
  const out: VisitorIdentity = {};
  let kept = 0;
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    if (kept >= IDENTITY_MAX_KEYS) break;
    if (!KEY.test(key)) continue;
    if (typeof value === "string") {
      const text = value.replace(/[\u0000-\u001f\u007f]/g, " ").trim().slice(0, IDENTITY_MAX_VALUE);
      if (!text) continue;
      out[key] = text;
    } else if (typeof value === "number" && Number.isFinite(value)) out[key] = value;
    else if (typeof value === "boolean") out[key] = value;
    else continue;
    kept++;
  }
  return kept ? out : null;
}

export const IdentityContext = createContext<VisitorIdentity | null>(null);

/** The identity in effect for this chat (null when the host page gave none). */
export function useVisitorIdentity(): VisitorIdentity | null {
  return useContext(IdentityContext);
}

/**
 * In the widget's iframe: listens for the loader's `identify` messages (from the parent window
 * only) and says it is ready, so an identity given before the iframe's app started still arrives.
 */
export function useEmbedIdentity(): VisitorIdentity | null {
  const [identity, setIdentity] = useState<VisitorIdentity | null>(null);
  useEffect(() => {
    if (typeof window === "undefined" || window.parent === window) return;
    const onMessage = (e: MessageEvent) => {
      if (e.source !== window.parent) return;
      const d: unknown = e.data;
      if (!d || typeof d !== "object" || (d as { parley?: unknown }).parley !== "identify") return;
      setIdentity(sanitizeIdentity((d as { user?: unknown }).user));
    };
    window.addEventListener("message", onMessage);
    window.parent.postMessage({ parley: "ready" }, "*");
    return () => window.removeEventListener("message", onMessage);
  }, []);
  return identity;
}
