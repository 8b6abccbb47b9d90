import { useMutation } from "@tanstack/react-query";
import { toAppError } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";

/** Auth mails a confirmation link; the address changes once it is followed. */
export async function changeEmail(v: { email: string; redirectTo: string }): Promise<void> {
  const { error } = await (await loadSupabase()).auth.updateUser({ email: v.email }, { emailRedirectTo: v.redirectTo });
  if (error) throw toAppError(error);
}

export const useChangeEmailMutation = () => useMutation({ mutationFn: changeEmail });
