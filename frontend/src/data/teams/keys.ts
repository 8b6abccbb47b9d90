// Query keys for teams and what hangs off a team, general to specific.
export const teamKeys = {
  all: ["teams"] as const,
  mine: () => [...teamKeys.all, "mine"] as const,
  detail: (teamId: string) => [...teamKeys.all, "detail", teamId] as const,
  members: (teamId: string) => [...teamKeys.detail(teamId), "members"] as const,
  providerKeys: (teamId: string) => [...teamKeys.detail(teamId), "provider-keys"] as const,
};
