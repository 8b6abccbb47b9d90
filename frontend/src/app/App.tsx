import type { ReactNode } from "react";
import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { SessionProvider } from "../lib/session";
import { HeadContext, type HeadStore } from "./head";

/** Providers that live outside the router (shared by the browser entry and the prerender). */
export function AppProviders({ queryClient, headStore, children }: { queryClient: QueryClient; headStore?: HeadStore; children: ReactNode }) {
  return (
    <HeadContext.Provider value={headStore ?? null}>
      <QueryClientProvider client={queryClient}>
        <SessionProvider>{children}</SessionProvider>
      </QueryClientProvider>
    </HeadContext.Provider>
  );
}
