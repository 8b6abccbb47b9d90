// The chat inside an iframe (the widget's, or a site's own). ?lang= picks the language
// (a redirect to that language's URL, as every other page has it), ?color= the accent and ?chat=
// the chat to continue.
import { useEffect } from "react";
import { isLocaleCode, localizePath, splitLocale } from "../../i18n/locales";
import { ChatView, type ChatVariant } from "./ChatView";
import { IdentityContext, useEmbedIdentity } from "./identity";
import { useChatNav } from "./nav";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function EmbedChat({ botId, variant }: { botId: string; variant: Exclude<ChatVariant, "page"> }) {
  const { pathname, search: query, navigate } = useChatNav();
  const search = new URLSearchParams(query);
  const lang = search.get("lang");
  const { locale, path } = splitLocale(pathname);
  const wrongLang = !!lang && isLocaleCode(lang) && lang !== locale;
  // Parley.identify() on the host page: who the site says the visitor is.
  const identity = useEmbedIdentity();
  useEffect(() => {
    if (!wrongLang || !lang || !isLocaleCode(lang)) return;
    const rest = new URLSearchParams(query);
    rest.delete("lang");
    const q = rest.toString();
    navigate(`${localizePath(path, lang)}${q ? `?${q}` : ""}`, { replace: true });
  }, [wrongLang, lang, path, query, navigate]);
  // In the widget's iframe, Escape asks the page's loader to close the bubble (unless a
  // menu or dialog of the chat takes that Escape itself).
  useEffect(() => {
    if (window.parent === window) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || (e.target instanceof Element && e.target.closest(".menu, dialog"))) return;
      window.parent.postMessage({ parley: "close" }, "*");
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  if (wrongLang) return null;
  // ?chat=: the chat the widget's loader kept for this site (the visitor's own; RLS decides).
  const chat = search.get("chat");
  const chatId = chat && UUID.test(chat) ? chat : undefined;
  return (
    <div className={`embed-root embed-root--${variant}`}>
      <IdentityContext.Provider value={identity}>
        <ChatView botId={botId} chatId={chatId} variant={variant} color={search.get("color")} />
      </IdentityContext.Provider>
    </div>
  );
}
