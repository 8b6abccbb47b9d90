// Query keys for data sources, general to specific (TkDodo's key factories).
export const dataSourceKeys = {
  all: ["dataSources"] as const,
  lists: () => [...dataSourceKeys.all, "list"] as const,
  list: (botId: string) => [...dataSourceKeys.lists(), botId] as const,
  details: () => [...dataSourceKeys.all, "detail"] as const,
  detail: (id: string) => [...dataSourceKeys.details(), id] as const,
  notionSearch: (connectionId: string | null, query: string) => [...dataSourceKeys.all, "notionSearch", connectionId, query] as const,
};
