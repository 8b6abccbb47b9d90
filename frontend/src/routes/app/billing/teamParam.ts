// Which team the billing pages are about: ?team=<id> (Stripe's return links carry it) when the
// caller belongs to it, else the team the app is working in.
import { useSearchParams } from "react-router";
import { useCurrentTeam } from "../../../features/teams/currentTeam";

export function useBillingTeam() {
  const [params] = useSearchParams();
  const { teams, team } = useCurrentTeam();
  const wanted = params.get("team");
  const chosen = (wanted && teams.data?.find((t) => t.id === wanted)) || team;
  return { pending: teams.isPending, team: chosen, error: teams.error };
}
