// Query keys for documents of a data source.
export const documentKeys = {
  all: ["documents"] as const,
  bySource: (sourceId: string) => [...documentKeys.all, "source", sourceId] as const,
  list: (sourceId: string, search: string) => [...documentKeys.bySource(sourceId), "list", search] as const,
  detail: (id: string) => [...documentKeys.all, "detail", id] as const,
};
