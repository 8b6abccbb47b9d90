// Query keys for webhooks, general to specific, rooted at the bot.
export const webhookKeys = {
  all: ["webhooks"] as const,
  endpoints: (botId: string) => [...webhookKeys.all, "endpoints", botId] as const,
  deliveries: (botId: string, endpointId: string | null) => [...webhookKeys.all, "deliveries", botId, endpointId] as const,
  allDeliveries: (botId: string) => [...webhookKeys.all, "deliveries", botId] as const,
};
