import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { useMemberMutation, type MemberTarget } from "./use-member-mutation";

export async function transferOwnership({ teamId, userId }: MemberTarget): Promise<void> {
  unwrap(await (await loadSupabase()).rpc("transfer_team_ownership", { team_id: teamId, new_owner_id: userId }));
}

export const useTransferOwnershipMutation = () => useMemberMutation(transferOwnership);
