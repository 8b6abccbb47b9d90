// The count beside "Conversations" in the app nav: the team's chats waiting for a person (kept
// live). Nothing while there are none; the number is read out with its meaning.
import { FormattedMessage } from "react-intl";
import { useTeamBotsQuery } from "../../data/bots/team-bots-query";
import { useLiveWaitingForHuman } from "../../data/chats/use-live-conversations";
import { useWaitingForHumanQuery } from "../../data/chats/waiting-for-human-query";
import "./nav-badge.css";

export function WaitingForHumanBadge({ teamId }: { teamId: string | undefined }) {
  const count = useWaitingForHumanQuery(teamId);
  const bots = useTeamBotsQuery(teamId);
  useLiveWaitingForHuman(teamId, bots.data?.map((b) => b.id));
  if (!count.data) return null;
  // The space keeps the link's text and the count apart, on screen and in its accessible name.
  return (
    <>
      {" "}
      <span className="nav-badge" data-testid="nav-waiting-for-human">
        <span aria-hidden="true">{count.data}</span>
        <span className="sr-only">
          <FormattedMessage id="conversations.needsHuman.count" values={{ count: count.data }} />
        </span>
      </span>
    </>
  );
}
