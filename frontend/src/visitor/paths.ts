// The visitor's pages: the hosted chat page and the embeds, in every language. The servers
// (frontend/server, Vite's dev and preview servers) answer these paths with visitor.html, the
// lean entry; everything else gets the app (index.html). No imports: Node loads this file as is.

/** The prefixed languages (src/i18n/locales.ts PREFIXED_LOCALES; a test keeps them equal). */
export const VISITOR_LOCALE_PREFIXES = ["de", "es", "fr", "it", "jp", "cn", "el", "pl", "nl"] as const;

export type VisitorScreen =
  { kind: "page"; botId: string; chatId?: string } | { kind: "embed" | "embed-center"; botId: string };

const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";
/** The visitor's paths (groups: bot id, chat id, embed kind); visitor.html's head script uses the same. */
export const VISITOR_PATH = new RegExp(
  `^(?:/(?:${VISITOR_LOCALE_PREFIXES.join("|")}))?/bots/(${UUID})(?:/chats/(${UUID})|/(embed|embed-center))?/*$`,
);

/** The visitor screen of a pathname, or null when the path is the app's. */
export function visitorScreen(pathname: string): VisitorScreen | null {
  const m = VISITOR_PATH.exec(pathname);
  if (!m) return null;
  const [, botId, chatId, embed] = m as unknown as [
    string,
    string,
    string | undefined,
    "embed" | "embed-center" | undefined,
  ];
  if (embed) return { kind: embed, botId };
  return chatId ? { kind: "page", botId, chatId } : { kind: "page", botId };
}

/** The HTML file of the visitor's entry in the build (and its page in the dev server). */
export const VISITOR_HTML = "visitor.html";
