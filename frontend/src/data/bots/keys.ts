// Query keys for bots, general to specific (TkDodo's key factories). A team's list hangs off
// the team (['teams', teamId, 'bots']); one bot's views hang off ['bots'].
import { teamKeys } from "../teams/keys";

export const botKeys = {
  all: ["bots"] as const,
  team: (teamId: string) => [...teamKeys.detail(teamId), "bots"] as const,
  detail: (botId: string) => [...botKeys.all, "detail", botId] as const,
  gallery: () => [...botKeys.all, "gallery"] as const,
  galleryDetail: (id: string) => [...botKeys.gallery(), id] as const,
  public: (botId: string) => [...botKeys.all, "public", botId] as const,
  grant: (botId: string, userId: string) => [...botKeys.all, "grant", botId, userId] as const,
  siblings: (botId: string) => [...botKeys.all, "siblings", botId] as const,
};
