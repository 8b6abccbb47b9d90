// Query keys for the bot overview's numbers, general to specific.
export const statsKeys = {
  all: ["stats"] as const,
  bot: (botId: string, days: number) => [...statsKeys.all, "bot", botId, days] as const,
};
