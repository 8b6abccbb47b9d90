// Second factors (TOTP) through supabase-js's auth.mfa, as the account screen, the sign-in's code
// step and the guards use them. Whether a session must pass a second factor is auth's answer
// (getAuthenticatorAssuranceLevel); whether an administrator may enter is Postgres's (admin_access).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Factor } from "@supabase/supabase-js";
import { toAppError } from "../../lib/errors";
import type { AppSupabaseClient } from "../../lib/supabase";
import { loadSupabase } from "../../lib/supabase-ready";

/** True when the session has a verified factor it has not used yet (aal1 now, aal2 next). */
export async function needsSecondFactor(client: AppSupabaseClient): Promise<boolean> {
  const { data, error } = await client.auth.mfa.getAuthenticatorAssuranceLevel();
  if (error || !data) return false;
  return data.nextLevel === "aal2" && data.currentLevel !== "aal2";
}

export type AdminAccess = "granted" | "aal2_required" | "none";

/** admin_access(): why the admin area is open or closed to the caller; any error counts as "none". */
export async function adminAccess(client: AppSupabaseClient): Promise<AdminAccess> {
  const { data, error } = await client.rpc("admin_access");
  if (error) return "none";
  return data === "granted" || data === "aal2_required" ? data : "none";
}

/** The caller's verified TOTP factors (an enrolment not yet confirmed with a code is left out). */
export async function verifiedTotpFactors(client: AppSupabaseClient): Promise<Factor[]> {
  const { data, error } = await client.auth.mfa.listFactors();
  if (error) throw toAppError(error);
  return data.totp;
}

export const MFA_FACTORS_KEY = ["auth", "mfa", "factors"] as const;

export interface FactorsState {
  factors: Factor[];
  /** The session has passed a second factor (needed to remove one). */
  aal2: boolean;
}

export function useMfaFactorsQuery() {
  return useQuery({
    queryKey: MFA_FACTORS_KEY,
    queryFn: async (): Promise<FactorsState> => {
      const client = await loadSupabase();
      const [factors, level] = await Promise.all([verifiedTotpFactors(client), client.auth.mfa.getAuthenticatorAssuranceLevel()]);
      if (level.error) throw toAppError(level.error);
      return { factors, aal2: level.data.currentLevel === "aal2" };
    },
  });
}

export interface Enrolment {
  factorId: string;
  /** The QR code as an SVG data URI (what auth returns), for an <img>. */
  qrCode: string;
  secret: string;
}

/**
 * supabase-js hands the QR code over as `data:image/svg+xml;utf-8,<svg …>`, the SVG unescaped:
 * its colours (`#000000`) would end the URI at the "#". The SVG is escaped for an <img>.
 */
export function svgDataUri(qr: string): string {
  const svg = qr.replace(/^data:image\/svg\+xml;utf-8,/, "");
  return svg.startsWith("<") ? `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` : qr;
}

export async function enrollTotp(friendlyName: string): Promise<Enrolment> {
  const client = await loadSupabase();
  const { data, error } = await client.auth.mfa.enroll({ factorType: "totp", friendlyName: friendlyName || undefined });
  if (error) throw toAppError(error);
  return { factorId: data.id, qrCode: svgDataUri(data.totp.qr_code), secret: data.totp.secret };
}

/** Challenge and verify a factor with a code: the session steps up to aal2 (and an enrolment is confirmed). */
export async function verifyTotp({ factorId, code }: { factorId: string; code: string }, getClient: () => Promise<AppSupabaseClient> = loadSupabase): Promise<void> {
  const client = await getClient();
  const { error } = await client.auth.mfa.challengeAndVerify({ factorId, code });
  if (error) throw toAppError(error);
}

export async function unenrollFactor(factorId: string): Promise<void> {
  const client = await loadSupabase();
  const { error } = await client.auth.mfa.unenroll({ factorId });
  if (error) throw toAppError(error);
}

/** After a step up or a factor change every answer may differ (admin reads, is_platform_admin): refetch all. */
function useRefreshAll() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries();
}

export const useEnrollTotpMutation = () => useMutation({ mutationFn: enrollTotp });

/** `getClient`: the auth screens hand in theirs (features/auth/deps). */
export function useVerifyTotpMutation(getClient: () => Promise<AppSupabaseClient> = loadSupabase) {
  const refresh = useRefreshAll();
  return useMutation({ mutationFn: (v: { factorId: string; code: string }) => verifyTotp(v, getClient), onSuccess: refresh });
}

export function useUnenrollFactorMutation() {
  const refresh = useRefreshAll();
  return useMutation({ mutationFn: unenrollFactor, onSuccess: refresh });
}

/** Mails the reauthentication code (auth.reauthenticate) a password change then gives as `nonce`. */
export async function sendReauthenticationCode(): Promise<void> {
  const { error } = await (await loadSupabase()).auth.reauthenticate();
  if (error) throw toAppError(error);
}

export const useSendReauthenticationCodeMutation = () => useMutation({ mutationFn: sendReauthenticationCode });
