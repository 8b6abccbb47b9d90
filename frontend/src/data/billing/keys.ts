// Query keys for billing, general to specific: the plans (anyone's), then a team's billing.
export const billingKeys = {
  all: ["billing"] as const,
  plans: () => [...billingKeys.all, "plans"] as const,
  config: () => [...billingKeys.all, "config"] as const,
  team: (teamId: string) => [...billingKeys.all, "team", teamId] as const,
  subscription: (teamId: string) => [...billingKeys.team(teamId), "subscription"] as const,
  usage: (teamId: string) => [...billingKeys.team(teamId), "usage"] as const,
  invoices: (teamId: string) => [...billingKeys.team(teamId), "invoices"] as const,
};
