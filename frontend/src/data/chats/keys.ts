// Query keys for chats. The team's conversation lists hang off the team
// (['teams', teamId, 'conversations', filters]); one chat's views hang off ['chats'].
import { teamKeys } from "../teams/keys";
import type { ConversationFilters } from "./types";

export const chatKeys = {
  all: ["chats"] as const,
  detail: (chatId: string) => [...chatKeys.all, "detail", chatId] as const,
  conversation: (chatId: string) => [...chatKeys.all, "conversation", chatId] as const,
  mine: (userId: string) => [...chatKeys.all, "mine", userId] as const,
  latest: (botId: string) => [...chatKeys.all, "latest", botId] as const,
  teamLists: (teamId: string) => [...teamKeys.detail(teamId), "conversations"] as const,
  list: (teamId: string, filters: ConversationFilters) => [...chatKeys.teamLists(teamId), filters] as const,
  /** How many of the team's chats wait for a person (under teamLists: refreshed with the lists). */
  needsHuman: (teamId: string) => [...chatKeys.teamLists(teamId), "needs-human"] as const,
  /** Short-lived links to a turn's images (the chat-images bucket is private). */
  imageUrls: (paths: readonly string[]) => [...chatKeys.all, "image-urls", ...paths] as const,
  /** How many of those are not yet answered by a person (the app nav's badge; also under teamLists). */
  waitingForHuman: (teamId: string) => [...chatKeys.teamLists(teamId), "waiting-for-human"] as const,
};
