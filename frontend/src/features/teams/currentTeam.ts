// The team the app pages work in, remembered in localStorage so every page (and tab)
// agrees. Falls back to the first team the caller belongs to.
import { useCallback, useSyncExternalStore } from "react";
import { useMyTeamsQuery, type MyTeam } from "../../data/teams/my-teams-query";

export const CURRENT_TEAM_KEY = "parley.currentTeam";
const EVENT = "parley:current-team";

function read(): string | null {
  try {
    return localStorage.getItem(CURRENT_TEAM_KEY);
  } catch {
    return null;
  }
}

export function setCurrentTeamId(id: string): void {
  try {
    localStorage.setItem(CURRENT_TEAM_KEY, id);
  } catch {
    // storage disabled: the choice lasts for this page only
  }
  window.dispatchEvent(new Event(EVENT));
}

function subscribe(cb: () => void): () => void {
  window.addEventListener(EVENT, cb);
  window.addEventListener("storage", cb);
  return () => {
    window.removeEventListener(EVENT, cb);
    window.removeEventListener("storage", cb);
  };
}

export function useCurrentTeam() {
  const teams = useMyTeamsQuery();
  const stored = useSyncExternalStore(subscribe, read, () => null);
  const list = teams.data ?? [];
  const team: MyTeam | undefined = list.find((t) => t.id === stored) ?? list.find((t) => !t.personal) ?? list[0];
  const select = useCallback((id: string) => setCurrentTeamId(id), []);
  return { teams, team, select };
}
