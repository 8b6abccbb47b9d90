// Query keys for chats and the bots a visitor talks to, general to specific.
export const chatKeys = {
  all: ["chats"] as const,
  publicBot: (botId: string) => [...chatKeys.all, "public-bot", botId] as const,
  grant: (botId: string, userId: string) => [...chatKeys.all, "grant", botId, userId] as const,
  detail: (chatId: string) => [...chatKeys.all, "detail", chatId] as const,
  shared: (chatId: string) => [...chatKeys.all, "shared", chatId] as const,
  teamBots: (botId: string) => [...chatKeys.all, "team-bots", botId] as const,
};
