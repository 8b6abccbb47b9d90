import { useMutation } from "@tanstack/react-query";
import { toAppError } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";

export async function changePassword(password: string): Promise<void> {
  const { error } = await (await loadSupabase()).auth.updateUser({ password });
  if (error) throw toAppError(error);
}

export const useChangePasswordMutation = () => useMutation({ mutationFn: changePassword });
