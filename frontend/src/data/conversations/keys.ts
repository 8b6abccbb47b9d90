// Query keys for the team's conversations and the signed-in user's own chats, general to specific.
import type { ConversationFilters } from "../../features/conversations/filters";

export const conversationKeys = {
  all: ["conversations"] as const,
  lists: () => [...conversationKeys.all, "list"] as const,
  list: (teamId: string, filters: ConversationFilters) => [...conversationKeys.lists(), teamId, filters] as const,
  detail: (chatId: string) => [...conversationKeys.all, "detail", chatId] as const,
  mine: (userId: string) => [...conversationKeys.all, "mine", userId] as const,
};
