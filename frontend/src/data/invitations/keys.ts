import { teamKeys } from "../teams/keys";

// A team's pending invitations hang off the team; one invitation is read by its token.
export const invitationKeys = {
  all: ["invitations"] as const,
  team: (teamId: string) => [...teamKeys.detail(teamId), "invitations"] as const,
  byToken: (token: string) => [...invitationKeys.all, "token", token] as const,
};
