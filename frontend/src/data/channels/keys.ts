// Query keys for channels and API keys, general to specific, rooted at the bot.
export const channelKeys = {
  all: ["channels"] as const,
  lists: () => [...channelKeys.all, "list"] as const,
  list: (botId: string) => [...channelKeys.lists(), botId] as const,
  details: () => [...channelKeys.all, "detail"] as const,
  detail: (id: string) => [...channelKeys.details(), id] as const,
  credentials: (id: string) => [...channelKeys.detail(id), "credentials"] as const,
  apiKeys: (botId: string) => [...channelKeys.all, "apiKeys", botId] as const,
};
