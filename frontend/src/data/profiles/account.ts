// Account-level changes through auth (password, email) and the account-delete function.
import { useMutation } from "@tanstack/react-query";
import { callFunction, toAppError } from "../teams/errors";

export async function changePassword(password: string): Promise<void> {
  const { getSupabase } = await import("../../lib/supabase");
  const { error } = await getSupabase().auth.updateUser({ password });
  if (error) throw toAppError({ message: error.message, code: error.code });
}

/** Auth mails a confirmation link; the address changes once it is followed. */
export async function changeEmail(v: { email: string; redirectTo: string }): Promise<void> {
  const { getSupabase } = await import("../../lib/supabase");
  const { error } = await getSupabase().auth.updateUser({ email: v.email }, { emailRedirectTo: v.redirectTo });
  if (error) throw toAppError({ message: error.message, code: error.code });
}

export async function deleteAccount(): Promise<void> {
  await callFunction("account-delete", { confirm: "DELETE" });
  const { getSupabase } = await import("../../lib/supabase");
  await getSupabase().auth.signOut({ scope: "local" });
}

export const useChangePasswordMutation = () => useMutation({ mutationFn: changePassword });
export const useChangeEmailMutation = () => useMutation({ mutationFn: changeEmail });
export const useDeleteAccountMutation = () => useMutation({ mutationFn: deleteAccount });
