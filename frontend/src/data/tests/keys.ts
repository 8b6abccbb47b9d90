// Query keys of a bot's tests: settings, cases, runs, one run's results.
export const testKeys = {
  all: ["tests"] as const,
  settings: (botId: string) => [...testKeys.all, "bot", botId, "settings"] as const,
  latestRun: (botId: string) => [...testKeys.all, "bot", botId, "runs", "latest"] as const,
  cases: (botId: string) => [...testKeys.all, "bot", botId, "cases"] as const,
  runs: (botId: string) => [...testKeys.all, "bot", botId, "runs"] as const,
  run: (runId: string) => [...testKeys.all, "run", runId] as const,
  results: (runId: string) => [...testKeys.all, "run", runId, "results"] as const,
};
