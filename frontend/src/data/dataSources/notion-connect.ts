// The `notion-connect` edge function: Notion's OAuth run server-side. The browser only ever
// sees a connection id; the access token goes from Notion to Postgres.
import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import type { NotionExchangeAnswer, NotionExchangeRequest, NotionPickerItem, NotionSearchAnswer, NotionSearchRequest, NotionStartAnswer, NotionStartRequest } from "@shared/contracts/notion-connect.ts";
import { callFunction } from "../../lib/functions";
import { dataSourceKeys } from "./keys";

export type { NotionPickerItem as NotionItem, NotionExchangeAnswer as NotionConnected, NotionSearchAnswer as NotionSearchPage };

/** The callback page every Notion connection returns to (registered with Notion; never localized). */
export const NOTION_CALLBACK_PATH = "/app/auth/providers/notion/callback";

export const startNotionConnect = (redirectUri: string, returnPath: string) =>
  callFunction<NotionStartAnswer>("notion-connect/start", { redirect_uri: redirectUri, return_path: returnPath } satisfies NotionStartRequest);

/** What Notion handed to the callback page (a code, or an error). */
export const exchangeNotionConnect = (input: NotionExchangeRequest) => callFunction<NotionExchangeAnswer>("notion-connect/exchange", input);

export const searchNotion = (connectionId: string, query: string, cursor?: string) =>
  callFunction<NotionSearchAnswer>("notion-connect/search", {
    connection_id: connectionId,
    ...(query.trim() ? { query: query.trim() } : {}),
    ...(cursor ? { cursor } : {}),
  } satisfies NotionSearchRequest);

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
