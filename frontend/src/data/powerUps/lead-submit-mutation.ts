// A visitor sends a lead form shown in their chat: public.submit_lead checks the chat is theirs,
// the form is an enabled lead power-up of its bot, and keeps only the form's fields.
import { useMutation } from "@tanstack/react-query";
import type { LeadFormField } from "@shared/contracts/chat.ts";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";

export interface LeadSubmitInput {
  chatId: string;
  powerUpId: string;
  fields: Partial<Record<LeadFormField, string>>;
}

/** Returns the new lead's id. Errors carry the function's hint: invalid_input, rate_limited, chat_not_found, power_up_not_found. */
export async function submitLead({ chatId, powerUpId, fields }: LeadSubmitInput): Promise<string> {
  return unwrap(await (await loadSupabase()).rpc("submit_lead", { chat_id: chatId, power_up_id: powerUpId, fields }));
}

export function useLeadSubmitMutation() {
  return useMutation({ mutationFn: submitLead });
}
