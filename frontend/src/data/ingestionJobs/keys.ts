// Query keys for ingestion jobs.
export const ingestionJobKeys = {
  all: ["ingestionJobs"] as const,
  bySource: (sourceId: string) => [...ingestionJobKeys.all, "source", sourceId] as const,
  byBot: (botId: string) => [...ingestionJobKeys.all, "bot", botId] as const,
};
