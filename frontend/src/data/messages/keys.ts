// Query keys for messages and their feedback.
export const messageKeys = {
  all: ["messages"] as const,
  feedback: (messageId: string) => [...messageKeys.all, "feedback", messageId] as const,
};
