// Where the chat is and how it moves: the chat screens read the URL and navigate through this
// context, not through react-router, so the visitor's lean entry (src/visitor) can show them
// without the router. The app's routes provide it from react-router (RouterChatNav).
import { createContext, useContext } from "react";
import { localeFromPath, localizePath, type LocaleCode } from "../../i18n/locales";

export interface ChatNav {
  pathname: string;
  search: string;
  /** Goes to a path of this site (already localized), replacing the entry when asked. */
  navigate(to: string, options?: { replace?: boolean }): void;
}

export const ChatNavContext = createContext<ChatNav | null>(null);

export function useChatNav(): ChatNav {
  const nav = useContext(ChatNavContext);
  if (!nav) throw new Error("The chat needs a ChatNavContext (RouterChatNav in the app, the visitor entry's own)");
  return nav;
}

/** The page's language, from its path. */
export function useChatLocale(): LocaleCode {
  return localeFromPath(useChatNav().pathname);
}

/** Localizes an unprefixed path for the page's language. */
export function useChatLocalePath(): (path: string) => string {
  const locale = useChatLocale();
  return (path) => localizePath(path, locale);
}
