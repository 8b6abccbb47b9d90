import { useMatches } from "react-router";
import type { LocaleCode } from "../i18n/locales";
import type { RouteDef } from "./routes";

export interface RouteHandle {
  def: RouteDef;
  locale: LocaleCode;
}

/** The route table entry of a react-router match handle, if any. */
export function handleOf(handle: unknown): RouteHandle | undefined {
  const h = handle as RouteHandle | undefined;
  return h && typeof h === "object" && "def" in h ? h : undefined;
}

/** The route table entry of the deepest matched screen. */
export function useRouteDef(): RouteHandle["def"] | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const h = handleOf(matches[i]!.handle);
    if (h) return h.def;
  }
  return undefined;
}
