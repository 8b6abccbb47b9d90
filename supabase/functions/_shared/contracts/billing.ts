// The `billing` function (see functions/billing/index.ts) and the plan limit error Postgres raises.

export const BILLING_INTERVALS = ["month", "year"] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

/** The limits of a plan, in the order the billing screen shows them (plans columns, team_plan_usage rows). */
export const PLAN_LIMITS = [
  "bots", "messages_per_month", "data_sources", "stored_characters", "members", "channels",
  "power_ups", "api_access", "powered_by_removable", "test_runs_per_month",
] as const;
export type PlanLimit = (typeof PLAN_LIMITS)[number];

export interface BillingConfigAnswer {
  configured: boolean;
}

export interface CheckoutRequest {
  team_id: string;
  plan_id: string;
  interval?: BillingInterval;
  currency?: string;
  locale?: string;
}
export type PlanChangeRequest = CheckoutRequest;

export interface CheckoutAnswer {
  url: string;
}

export interface CancelRequest {
  team_id: string;
  /** true: take back a cancellation at the period's end. */
  resume?: boolean;
}

export interface PortalRequest {
  team_id: string;
  locale?: string;
}
export type PortalAnswer = CheckoutAnswer;

export interface BillingTickAnswer {
  moved: number;
  notices: number;
  mailed: number;
}
