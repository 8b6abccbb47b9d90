import type { Tables } from "../../lib/database";

export type Plan = Tables<"plans">;
export type Subscription = Tables<"subscriptions">;
export type Invoice = Tables<"invoices">;
/** prices: {"usd": {"month": 1900, "year": 19000}, ...} in the currency's smallest unit. */
export type PlanPrices = Record<string, Partial<Record<"month" | "year", number>>>;

export interface UsageMeter {
  limit_name: string;
  used: number;
  /** null: unlimited; for api_access and powered_by_removable 0 means "not included". */
  limit_value: number | null;
  unlimited: boolean;
}
