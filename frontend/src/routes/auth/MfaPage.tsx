// /app/auth/mfa: the sign-in's second step (the authenticator app's code), where the guards send a
// session that has a verified factor still to use, and a platform administrator without one.
import { SecondFactorStep } from "../../features/auth/SecondFactorStep";

export default function MfaPage() {
  return <SecondFactorStep />;
}
