import { QueryClient } from "@tanstack/react-query";

export const QUERY_RETRIES = 3;
export const QUERY_GC_TIME = 5 * 60 * 1000;

/** 1000 ms doubling per attempt, capped at 30 s. */
export function queryRetryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 30_000);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: QUERY_RETRIES, retryDelay: queryRetryDelay, gcTime: QUERY_GC_TIME },
    },
  });
}
