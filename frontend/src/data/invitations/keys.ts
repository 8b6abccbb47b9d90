export const invitationKeys = {
  all: ["invitations"] as const,
  team: (teamId: string) => [...invitationKeys.all, "team", teamId] as const,
};
