import { useMutation } from "@tanstack/react-query";
import { toAppError } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";

export interface PasswordChange {
  password: string;
  /**
   * Supabase's secure password change ([auth.email] secure_password_change): the current password
   * proves it is the owner and not someone at an unlocked screen. Left out for a user who never
   * set one (provider or e-mail link sign-in), whom auth does not ask.
   */
  currentPassword?: string;
  /** Or the code auth.reauthenticate() mailed (GoTrue's `nonce`), for a user who chose "send me a code". */
  nonce?: string;
}

export async function changePassword({ password, currentPassword, nonce }: PasswordChange): Promise<void> {
  const attributes = nonce ? { password, nonce } : currentPassword ? { password, current_password: currentPassword } : { password };
  const { error } = await (await loadSupabase()).auth.updateUser(attributes);
  if (error) throw toAppError(error);
}

export const useChangePasswordMutation = () => useMutation({ mutationFn: changePassword });
