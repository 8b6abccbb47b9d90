// Keys for the team's bots as the app manages them, under the shared bots root so a
// bot change also refreshes other bot views (the gallery).
import { botKeys } from "../bots/keys";

export const botSettingsKeys = {
  all: botKeys.all,
  team: (teamId: string) => [...botKeys.all, "team", teamId] as const,
  detail: (botId: string) => [...botKeys.all, "settings", botId] as const,
};
