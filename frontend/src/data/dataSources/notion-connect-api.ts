// The `notion-connect` edge function: Notion's OAuth run server-side. The browser only ever
// sees a connection id; the access token goes from Notion to Postgres.
import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { callKnowledgeFunction } from "./ingest-api";
import { dataSourceKeys } from "./keys";

/** The callback page every Notion connection returns to (registered with Notion; never localized). */
export const NOTION_CALLBACK_PATH = "/app/auth/providers/notion/callback";

export interface NotionConnected {
  connection_id: string;
  workspace_name: string | null;
  return_path: string;
}

export interface NotionItem {
  id: string;
  type: "page" | "database";
  title: string;
  url: string | null;
  icon: string | null;
  last_edited_time: string | null;
}

export interface NotionSearchPage {
  workspace_name: string | null;
  results: NotionItem[];
  next_cursor: string | null;
}

export const startNotionConnect = (redirectUri: string, returnPath: string) =>
  callKnowledgeFunction<{ url: string }>("notion-connect", "start", { redirect_uri: redirectUri, return_path: returnPath });

export const exchangeNotionConnect = (input: { state: string; code?: string; error?: string; error_description?: string }) =>
  callKnowledgeFunction<NotionConnected>("notion-connect", "exchange", input);

export const searchNotion = (connectionId: string, query: string, cursor?: string) =>
  callKnowledgeFunction<NotionSearchPage>("notion-connect", "search", {
    connection_id: connectionId,
    ...(query.trim() ? { query: query.trim() } : {}),
    ...(cursor ? { cursor } : {}),
  });

/** Pages and databases of the connected workspace, a page of results at a time. */
export function useNotionSearchQuery(connectionId: string | null, query: string) {
  return useInfiniteQuery({
    queryKey: dataSourceKeys.notionSearch(connectionId, query.trim()),
    queryFn: ({ pageParam }) => searchNotion(connectionId!, query, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    enabled: !!connectionId,
    // While a new search runs, the previous results stay (no flicker to "loading").
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 60_000,
  });
}
