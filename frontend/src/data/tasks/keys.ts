// Query keys for tasks, general to specific, rooted at the bot.
export const taskKeys = {
  all: ["tasks"] as const,
  list: (botId: string) => [...taskKeys.all, "list", botId] as const,
  detail: (id: string) => [...taskKeys.all, "detail", id] as const,
  runs: (id: string) => [...taskKeys.all, "runs", id] as const,
};
