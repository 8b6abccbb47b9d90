// The chat's navigation (nav.ts) from react-router, for the chat screens inside the app.
import { useMemo, type ReactNode } from "react";
import { useLocation, useNavigate } from "react-router";
import { ChatNavContext, type ChatNav } from "./nav";

export function RouterChatNav({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  const nav = useMemo<ChatNav>(() => ({ pathname: location.pathname, search: location.search, navigate: (to, o) => void navigate(to, { replace: o?.replace }) }), [location.pathname, location.search, navigate]);
  return <ChatNavContext.Provider value={nav}>{children}</ChatNavContext.Provider>;
}
