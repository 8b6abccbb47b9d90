// Which providers the platform itself has keys for (the admin-platform function: booleans only).
import { useQuery } from "@tanstack/react-query";
import type { AdminPlatformResponse } from "@shared/contracts/admin-platform.ts";
import { callFunction } from "../../lib/functions";
import { adminDashboardKeys } from "./keys";

export const fetchPlatformProviders = () => callFunction<AdminPlatformResponse>("admin-platform", undefined, { method: "GET" });

export function usePlatformProvidersQuery() {
  return useQuery({ queryKey: adminDashboardKeys.platformProviders(), queryFn: fetchPlatformProviders });
}
