// Query keys for power-ups, rooted at the bot (TkDodo's key factories).
export const powerUpKeys = {
  all: ["powerUps"] as const,
  list: (botId: string) => [...powerUpKeys.all, "list", botId] as const,
  detail: (id: string) => [...powerUpKeys.all, "detail", id] as const,
  secrets: (id: string) => [...powerUpKeys.all, "secrets", id] as const,
  leads: (botId: string) => [...powerUpKeys.all, "leads", botId] as const,
};
