// The dashboard sections' reads, each one admin_* function over the period.
import { useQuery } from "@tanstack/react-query";
import { adminDashboardKeys } from "./keys";
import { adminRows, type AdminPeriod } from "./rpc";

export type { AdminPeriod };

export const useAdminProviderStatsQuery = (days: AdminPeriod) =>
  useQuery({ queryKey: adminDashboardKeys.providers(days), queryFn: () => adminRows("admin_provider_stats", { days }) });

export const useAdminModelUsageQuery = (days: AdminPeriod) =>
  useQuery({ queryKey: adminDashboardKeys.models(days), queryFn: () => adminRows("admin_model_usage", { days }) });

export const useAdminChannelUsageQuery = (days: AdminPeriod) =>
  useQuery({ queryKey: adminDashboardKeys.channels(days), queryFn: () => adminRows("admin_channel_usage", { days }) });

export const useAdminPowerUpUsageQuery = (days: AdminPeriod) =>
  useQuery({ queryKey: adminDashboardKeys.powerUps(days), queryFn: () => adminRows("admin_power_up_usage", { days }) });

/** Sync jobs per status and the latest failures. */
export async function fetchAdminIngestion(days: AdminPeriod) {
  const [statuses, failures] = await Promise.all([
    adminRows("admin_ingestion_status", { days }),
    adminRows("admin_ingestion_failures", { max_rows: 20 }),
  ]);
  return { statuses, failures };
}

export const useAdminIngestionQuery = (days: AdminPeriod) =>
  useQuery({ queryKey: adminDashboardKeys.ingestion(days), queryFn: () => fetchAdminIngestion(days) });
