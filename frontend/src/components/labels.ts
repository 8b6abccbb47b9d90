// Message ids for values several areas show (the bot settings, the team's provider keys).
/** `bots.provider.<provider>` with dashes: "openai_compatible" → "bots.provider.openai-compatible". */
export function providerLabelId(provider: string): string {
  return `bots.provider.${provider.replace(/_/g, "-")}`;
}
