// Query keys rooted at the tenant (Supabase Studio's shape): everything a team owns hangs off
// ['teams', teamId], so renaming or deleting a team refreshes all of it at once.
export const teamKeys = {
  all: ["teams"] as const,
  mine: () => [...teamKeys.all, "mine"] as const,
  detail: (teamId: string) => [...teamKeys.all, teamId] as const,
  members: (teamId: string) => [...teamKeys.detail(teamId), "members"] as const,
  providerKeys: (teamId: string) => [...teamKeys.detail(teamId), "provider-keys"] as const,
};
