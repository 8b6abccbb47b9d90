// Query keys for the admin dashboard, general to specific: every figure is platform-wide, so the
// root is the admin area and the period (days) is the last part where a query has one.
export const adminDashboardKeys = {
  all: ["admin", "dashboard"] as const,
  overview: (days: number) => [...adminDashboardKeys.all, "overview", days] as const,
  providers: (days: number) => [...adminDashboardKeys.all, "providers", days] as const,
  platformProviders: () => [...adminDashboardKeys.all, "platform-providers"] as const,
  models: (days: number) => [...adminDashboardKeys.all, "models", days] as const,
  channels: (days: number) => [...adminDashboardKeys.all, "channels", days] as const,
  powerUps: (days: number) => [...adminDashboardKeys.all, "power-ups", days] as const,
  features: () => [...adminDashboardKeys.all, "features"] as const,
  ingestion: (days: number) => [...adminDashboardKeys.all, "ingestion", days] as const,
  plans: () => [...adminDashboardKeys.all, "plans"] as const,
};
