// The auth forms in jsdom with a fake Supabase client: validation, error texts (the spec's
// "Could not log in. Please try again."), redirect sanitising, the URLs sent to auth, and the
// landing pages (confirm, reset, invite, OAuth callback).
import { describe, expect, it, vi } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import LoginPage from "../src/routes/auth/LoginPage";
import RegisterPage from "../src/routes/auth/RegisterPage";
import ForgottenPasswordPage from "../src/routes/auth/ForgottenPasswordPage";
import ResetPage from "../src/routes/auth/ResetPage";
import ConfirmEmailPage from "../src/routes/auth/ConfirmEmailPage";
import InvitePage, { invitationErrorId } from "../src/routes/auth/InvitePage";
import ProviderCallbackPage from "../src/routes/auth/ProviderCallbackPage";
import MfaPage from "../src/routes/auth/MfaPage";
import { safeRedirect } from "../src/lib/redirect";
import { fakeAuth, renderPage, session } from "./auth-harness";

// The machine is shared with other test runs: give slow lazy loads room, never assert timing.
vi.setConfig({ testTimeout: 20_000 });

const landed = () => screen.findByTestId("landed", {}, { timeout: 5_000 });

function setUrl(url: string) {
  window.history.replaceState(null, "", url);
}

describe("safeRedirect", () => {
  const fb = "/app/bots";
  it.each([
    ["/app/teams/1?tab=a#x", "/app/teams/1?tab=a#x"],
    ["/de/app/my-chats", "/de/app/my-chats"],
  ])("keeps same-origin path %s", (raw, want) => expect(safeRedirect(raw, fb)).toBe(want));
  it.each([
    "//evil.test/x",
    "https://evil.test/",
    "/\\evil.test",
    "\\\\evil.test",
    "javascript:alert(1)",
    "/\tevil",
    "app/bots",
    "",
    null,
    "/app/auth/login?redirect=/x",
    "/de/app/auth/register",
    "/" + "a".repeat(3000),
  ])("refuses %s", (raw) => expect(safeRedirect(raw as string | null, fb)).toBe(fb));
});

describe("login page", () => {
  it("validates before sending and focuses the first invalid field", async () => {
    const { client, auth } = fakeAuth();
    renderPage(<LoginPage />, { url: "/app/auth/login", path: "/app/auth/login", client });
    await userEvent.click(await screen.findByRole("button", { name: "Log in" }));
    expect(await screen.findByText("Enter your email address.")).toBeInTheDocument();
    expect(screen.getByText("Enter your password.")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText("Email")).toHaveFocus());
    await userEvent.type(screen.getByLabelText("Email"), "not-an-email");
    await userEvent.click(screen.getByRole("button", { name: "Log in" }));
    expect(await screen.findByText("This is not a valid email address.")).toBeInTheDocument();
    expect(auth.signInWithPassword).not.toHaveBeenCalled();
  });

  it("shows 'Could not log in. Please try again.' with GoTrue's reason", async () => {
    const { client, auth } = fakeAuth({
      signInWithPassword: vi.fn(async () => ({
        data: { session: null },
        error: { code: "invalid_credentials", message: "Invalid login credentials", status: 400 },
      })),
    });
    renderPage(<LoginPage />, { url: "/app/auth/login", path: "/app/auth/login", client });
    await userEvent.type(await screen.findByLabelText("Email"), "ana@example.test");
    await userEvent.type(screen.getByLabelText("Password"), "wrong-one");
    await userEvent.click(screen.getByRole("button", { name: "Log in" }));
    const alert = await screen.findByTestId("login-error");
    expect(alert).toHaveTextContent("Could not log in. Please try again.");
    expect(alert).toHaveTextContent("The email or password is wrong.");
    await waitFor(() => expect(alert).toHaveFocus());
    expect(auth.signInWithPassword).toHaveBeenCalledWith({ email: "ana@example.test", password: "wrong-one" });
  });

  it("offers to resend the confirmation when the email is not confirmed", async () => {
    const { client, auth } = fakeAuth({
      signInWithPassword: vi.fn(async () => ({
        data: { session: null },
        error: { code: "email_not_confirmed", message: "Email not confirmed" },
      })),
    });
    renderPage(<LoginPage />, { url: "/de/app/auth/login", path: "/de/app/auth/login", client, locale: "de" });
    await userEvent.type(await screen.findByLabelText("E-Mail"), "ana@example.test");
    await userEvent.type(screen.getByLabelText("Passwort"), "whatever-1");
    await userEvent.click(screen.getByRole("button", { name: "Anmelden" }));
    expect(await screen.findByTestId("login-error")).toHaveTextContent(
      "Anmeldung fehlgeschlagen. Bitte versuchen Sie es erneut",
    );
    await userEvent.click(screen.getByRole("button", { name: "Bestätigungs-E-Mail erneut senden" }));
    expect(auth.resend).toHaveBeenCalledWith({
      type: "signup",
      email: "ana@example.test",
      options: { emailRedirectTo: "https://parley.test/de/app/auth/confirm-email" },
    });
    expect(await screen.findByText(/haben wir einen neuen Link geschickt/)).toBeInTheDocument();
  });

  it.each([
    ["/app/teams/abc?x=1", "/app/teams/abc?x=1"],
    ["//evil.test/steal", "/app/bots"],
    ["https://evil.test/", "/app/bots"],
  ])("after sign-in with ?redirect=%s goes to %s", async (redirect, want) => {
    const { client } = fakeAuth();
    renderPage(<LoginPage />, {
      url: `/app/auth/login?redirect=${encodeURIComponent(redirect)}`,
      path: "/app/auth/login",
      client,
    });
    await userEvent.type(await screen.findByLabelText("Email"), "ana@example.test");
    await userEvent.type(screen.getByLabelText("Password"), "right-one-1");
    await userEvent.click(screen.getByRole("button", { name: "Log in" }));
    expect(await landed()).toHaveTextContent(want);
  });

  it("shows provider buttons only for enabled providers and toggles the password", async () => {
    const { client } = fakeAuth();
    renderPage(<LoginPage />, {
      url: "/app/auth/login",
      path: "/app/auth/login",
      client,
      settings: { external: { google: true, notion: false } },
    });
    const google = await screen.findByRole("link", { name: "Sign in with Google" });
    expect(google.getAttribute("href")).toBe("/app/auth/providers/google?redirect=%2Fapp%2Fbots");
    expect(screen.queryByRole("link", { name: "Sign in with Notion" })).toBeNull();
    const pw = screen.getByLabelText("Password");
    expect(pw).toHaveAttribute("type", "password");
    expect(pw).toHaveAttribute("autocomplete", "current-password");
    await userEvent.click(screen.getByRole("button", { name: "Show" }));
    expect(pw).toHaveAttribute("type", "text");
  });
});

describe("register page", () => {
  it("checks the minimum length and sends locale metadata and the confirm URL", async () => {
    const { client, auth } = fakeAuth();
    renderPage(<RegisterPage />, { url: "/de/app/auth/register", path: "/de/app/auth/register", client, locale: "de" });
    await userEvent.type(await screen.findByLabelText("Anzeigename (optional)"), "Ana");
    await userEvent.type(screen.getByLabelText("E-Mail"), "ana@example.test");
    await userEvent.type(screen.getByLabelText("Passwort"), "short");
    await userEvent.click(screen.getByRole("button", { name: "Konto erstellen" }));
    expect(await screen.findByText("Das Passwort braucht mindestens 8 Zeichen.")).toBeInTheDocument();
    expect(auth.signUp).not.toHaveBeenCalled();
    await userEvent.type(screen.getByLabelText("Passwort"), "-long-enough");
    await userEvent.click(screen.getByRole("button", { name: "Konto erstellen" }));
    expect(await screen.findByTestId("register-sent")).toHaveTextContent("ana@example.test");
    expect(auth.signUp).toHaveBeenCalledWith({
      email: "ana@example.test",
      password: "short-long-enough",
      options: {
        emailRedirectTo: "https://parley.test/de/app/auth/confirm-email",
        data: { locale: "de", preferred_language: "de", display_name: "Ana" },
      },
    });
  });

  it("shows the server's reason when the sign-up fails", async () => {
    const { client } = fakeAuth({
      signUp: vi.fn(async () => ({ data: {}, error: { code: "weak_password", message: "weak" } })),
    });
    renderPage(<RegisterPage />, { url: "/app/auth/register", path: "/app/auth/register", client });
    await userEvent.type(await screen.findByLabelText("Email"), "ana@example.test");
    await userEvent.type(screen.getByLabelText("Password"), "password-123");
    await userEvent.click(screen.getByRole("button", { name: "Create account" }));
    expect(await screen.findByTestId("register-error")).toHaveTextContent("This password is too weak.");
  });
});

describe("forgotten password and reset", () => {
  it("answers the same whether or not the address exists, with the reset URL", async () => {
    const { client, auth } = fakeAuth();
    renderPage(<ForgottenPasswordPage />, {
      url: "/app/auth/forgotten-password",
      path: "/app/auth/forgotten-password",
      client,
    });
    await userEvent.type(await screen.findByLabelText("Email"), "nobody@example.test");
    await userEvent.click(screen.getByRole("button", { name: "Send reset link" }));
    expect(await screen.findByTestId("forgot-sent")).toHaveTextContent("If an account exists for this address");
    expect(auth.resetPasswordForEmail).toHaveBeenCalledWith("nobody@example.test", {
      redirectTo: "https://parley.test/app/auth/reset",
    });
  });

  it("sets a new password when the recovery link gave a session", async () => {
    setUrl("/app/auth/reset?code=abc");
    const updateUser = vi
      .fn()
      .mockResolvedValueOnce({ data: {}, error: { code: "same_password", message: "same" } })
      .mockResolvedValueOnce({ data: {}, error: null });
    const { client, auth } = fakeAuth({
      getSession: vi.fn(async () => ({ data: { session: session() } })),
      updateUser,
    });
    renderPage(<ResetPage />, { url: "/app/auth/reset?code=abc", path: "/app/auth/reset", client });
    expect(await screen.findByText("Choose a new password for ana@example.test.")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("New password"), "new-password-1");
    await userEvent.type(screen.getByLabelText("Repeat the new password"), "new-password-2");
    await userEvent.click(screen.getByRole("button", { name: "Save new password" }));
    expect(await screen.findByText("The two passwords do not match.")).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText("Repeat the new password"));
    await userEvent.type(screen.getByLabelText("Repeat the new password"), "new-password-1");
    await userEvent.click(screen.getByRole("button", { name: "Save new password" }));
    expect(await screen.findByTestId("password-error")).toHaveTextContent(
      "The new password must be different from the old one.",
    );
    await userEvent.click(screen.getByRole("button", { name: "Save new password" }));
    expect(await screen.findByTestId("reset-done")).toHaveTextContent("Your password has been changed.");
    expect(auth.updateUser).toHaveBeenLastCalledWith({ password: "new-password-1" });
    expect(auth.exchangeCodeForSession).not.toHaveBeenCalled();
    expect(window.location.search).toBe("");
  });

  it("explains an expired recovery link", async () => {
    setUrl(
      "/app/auth/reset#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired",
    );
    const { client } = fakeAuth();
    renderPage(<ResetPage />, { url: "/app/auth/reset", path: "/app/auth/reset", client });
    expect(await screen.findByTestId("reset-error")).toHaveTextContent("This link has expired or was already used.");
    expect(screen.getByRole("link", { name: "Request a new link" })).toBeInTheDocument();
  });
});

describe("confirm email", () => {
  it("exchanges the code when supabase-js did not, and shows success", async () => {
    setUrl("/app/auth/confirm-email?code=xyz");
    const { client, auth } = fakeAuth({
      exchangeCodeForSession: vi.fn(async () => ({ data: { session: session("bo@example.test") }, error: null })),
    });
    renderPage(<ConfirmEmailPage />, {
      url: "/app/auth/confirm-email?code=xyz",
      path: "/app/auth/confirm-email",
      client,
    });
    expect(await screen.findByTestId("confirm-success")).toHaveTextContent("bo@example.test");
    expect(auth.exchangeCodeForSession).toHaveBeenCalledWith("xyz");
  });

  it("opened in another browser: confirmed, asks to log in", async () => {
    setUrl("/app/auth/confirm-email?code=xyz");
    const { client } = fakeAuth({
      exchangeCodeForSession: vi.fn(async () => ({
        data: { session: null },
        error: { name: "AuthPKCECodeVerifierMissingError", message: "missing" },
      })),
    });
    renderPage(<ConfirmEmailPage />, {
      url: "/app/auth/confirm-email?code=xyz",
      path: "/app/auth/confirm-email",
      client,
    });
    expect(await screen.findByTestId("confirm-login")).toHaveTextContent(
      "Your email address is confirmed. Please log in.",
    );
  });

  it("shows the error from the URL and a resend form", async () => {
    setUrl("/app/auth/confirm-email?error=access_denied&error_code=otp_expired");
    const { client, auth } = fakeAuth();
    renderPage(<ConfirmEmailPage />, { url: "/app/auth/confirm-email", path: "/app/auth/confirm-email", client });
    expect(await screen.findByTestId("confirm-error")).toHaveTextContent("Could not confirm your email address.");
    await userEvent.type(screen.getByLabelText("Email"), "ana@example.test");
    await userEvent.click(screen.getByRole("button", { name: "Resend confirmation email" }));
    expect(await screen.findByTestId("resend-sent")).toBeInTheDocument();
    expect(auth.resend).toHaveBeenCalledWith({
      type: "signup",
      email: "ana@example.test",
      options: { emailRedirectTo: "https://parley.test/app/auth/confirm-email" },
    });
  });
});

describe("invite page", () => {
  const TOKEN = "t".repeat(32);
  it("asks visitors to sign in or register and come back", async () => {
    setUrl(`/app/auth/invite?token=${TOKEN}`);
    const { client } = fakeAuth();
    renderPage(<InvitePage />, { url: `/app/auth/invite?token=${TOKEN}`, path: "/app/auth/invite", client });
    const login = await screen.findByRole("link", { name: "Log in" });
    expect(login.getAttribute("href")).toBe(
      `/app/auth/login?redirect=${encodeURIComponent(`/app/auth/invite?token=${TOKEN}`)}`,
    );
  });

  it("shows the team and role, accepts and goes to the team", async () => {
    setUrl(`/app/auth/invite?token=${TOKEN}`);
    const { client, rpc } = fakeAuth({ getSession: vi.fn(async () => ({ data: { session: session() } })) });
    rpc.mockImplementation(async (fn: string) =>
      fn === "get_invitation"
        ? {
            data: [
              {
                team_id: "team-1",
                team_name: "Acme Support",
                email: "ana@example.test",
                role: "admin",
                expires_at: "2099-01-01",
                accepted: false,
              },
            ],
            error: null,
          }
        : { data: "team-1", error: null },
    );
    renderPage(<InvitePage />, { url: `/app/auth/invite?token=${TOKEN}`, path: "/app/auth/invite", client });
    expect(await screen.findByText("Acme Support")).toBeInTheDocument();
    expect(screen.getByText("Administrator")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Join the team" }));
    expect(await landed()).toHaveTextContent("/app/teams/team-1");
    expect(rpc).toHaveBeenCalledWith("accept_invitation", { token: TOKEN });
  });

  // An access token whose `amr` says how the session was opened, as Supabase Auth writes it.
  const tokenBy = (method: string) => `h.${btoa(JSON.stringify({ sub: "u1", amr: [{ method, timestamp: 1 }] })).replace(/=+$/, "")}.sig`;
  const invitation = [{ team_id: "team-1", team_name: "Acme Support", email: "ana@example.test", role: "owner", expires_at: "2099-01-01", accepted: false }];

  it("an existing user signed in by the sign-in link is not offered a first password", async () => {
    setUrl(`/app/auth/invite?token=${TOKEN}#access_token=at&refresh_token=rt&type=magiclink`);
    const { client, rpc } = fakeAuth({
      setSession: vi.fn(async () => ({ data: { session: { ...session(), access_token: tokenBy("otp") } }, error: null })),
    });
    rpc.mockImplementation(async () => ({ data: invitation, error: null }));
    renderPage(<InvitePage />, { url: `/app/auth/invite?token=${TOKEN}`, path: "/app/auth/invite", client });
    expect(await screen.findByRole("button", { name: "Join the team" })).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Set a password" })).not.toBeInTheDocument();
  });

  it("a new invited user arriving with tokens in the hash may set a password", async () => {
    setUrl(`/app/auth/invite?token=${TOKEN}#access_token=at&refresh_token=rt&type=invite`);
    const { client, auth, rpc } = fakeAuth({
      setSession: vi.fn(async () => ({ data: { session: { ...session(), access_token: tokenBy("invite") } }, error: null })),
    });
    rpc.mockImplementation(async () => ({
      data: [
        {
          team_id: "team-1",
          team_name: "Acme Support",
          email: "ana@example.test",
          role: "owner",
          expires_at: "2099-01-01",
          accepted: false,
        },
      ],
      error: null,
    }));
    renderPage(<InvitePage />, { url: `/app/auth/invite?token=${TOKEN}`, path: "/app/auth/invite", client });
    expect(await screen.findByRole("heading", { name: "Set a password" })).toBeInTheDocument();
    expect(auth.setSession).toHaveBeenCalledWith({ access_token: "at", refresh_token: "rt" });
    await userEvent.type(screen.getByLabelText("New password"), "invited-pass-1");
    await userEvent.type(screen.getByLabelText("Repeat the new password"), "invited-pass-1");
    await userEvent.click(screen.getByRole("button", { name: "Save password" }));
    await waitFor(() => expect(auth.updateUser).toHaveBeenCalledWith({ password: "invited-pass-1" }));
    // A first password is set, not "changed".
    expect(await screen.findByTestId("invite-password-set")).toHaveTextContent(
      "Your password is set: from now on you can sign in with it. Welcome to the team!",
    );
    expect(screen.queryByText("Your password has been changed.")).not.toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Set a password" })).not.toBeInTheDocument();
    expect(window.location.hash).toBe("");
  });

  it.each([
    [{ code: "22023", message: "This invitation has already been used" }, "auth.invite.used"],
    [
      { code: "22023", message: "This invitation has expired: ask the team owner for a new one" },
      "auth.invite.expired",
    ],
    [{ code: "42501", message: "This invitation was sent to another email address" }, "auth.invite.wrongEmail"],
    [{ code: "PT404", message: "This invitation link is not valid" }, "auth.invite.invalid"],
    [{ code: "XX000", message: "boom" }, "auth.invite.failed"],
  ])("maps %o to %s", (err, id) => expect(invitationErrorId(err)).toBe(id));

  it("shows a clear error for a used invitation", async () => {
    setUrl(`/app/auth/invite?token=${TOKEN}`);
    const { client, rpc } = fakeAuth({ getSession: vi.fn(async () => ({ data: { session: session() } })) });
    rpc.mockImplementation(async (fn: string) =>
      fn === "get_invitation"
        ? {
            data: [
              {
                team_id: "team-1",
                team_name: "Acme Support",
                email: "x@example.test",
                role: "admin",
                expires_at: "2099-01-01",
                accepted: false,
              },
            ],
            error: null,
          }
        : { data: null, error: { code: "42501", message: "This invitation was sent to another email address" } },
    );
    renderPage(<InvitePage />, { url: `/app/auth/invite?token=${TOKEN}`, path: "/app/auth/invite", client });
    await userEvent.click(await screen.findByRole("button", { name: "Join the team" }));
    expect(await screen.findByTestId("invite-error")).toHaveTextContent(
      "This invitation was sent to another email address.",
    );
  });
});

describe("OAuth callback", () => {
  it("goes where the user was heading after the exchange", async () => {
    setUrl("/app/auth/providers/google/callback?code=c1");
    sessionStorage.setItem("parley.auth.heading", "/app/teams/t9");
    const { client } = fakeAuth({ getSession: vi.fn(async () => ({ data: { session: session() } })) });
    renderPage(<ProviderCallbackPage />, {
      url: "/app/auth/providers/google/callback?code=c1",
      path: "/app/auth/providers/google/callback",
      client,
      def: { meta: { provider: "google" } },
    });
    expect(await landed()).toHaveTextContent("/app/teams/t9");
  });

  it("shows the provider's error", async () => {
    setUrl("/app/auth/providers/notion/callback?error=access_denied&error_description=denied");
    const { client } = fakeAuth();
    renderPage(<ProviderCallbackPage />, {
      url: "/app/auth/providers/notion/callback",
      path: "/app/auth/providers/notion/callback",
      client,
      def: { meta: { provider: "notion" } },
    });
    expect(await screen.findByTestId("callback-error")).toHaveTextContent("Access was denied.");
  });

  it("a bot visitor's anonymous session is not a sign-in: without a code the page says so", async () => {
    setUrl("/app/auth/providers/google/callback");
    const { client } = fakeAuth({ getSession: vi.fn(async () => ({ data: { session: session(undefined, { is_anonymous: true, email: undefined }) } })) });
    renderPage(<ProviderCallbackPage />, {
      url: "/app/auth/providers/google/callback",
      path: "/app/auth/providers/google/callback",
      client,
      def: { meta: { provider: "google" } },
    });
    expect(await screen.findByTestId("callback-error")).toBeInTheDocument();
  });

  it("shopify is not available", async () => {
    const { client } = fakeAuth();
    renderPage(<ProviderCallbackPage />, { url: "/x", path: "/x", client, def: { meta: { provider: "shopify" } } });
    expect(await screen.findByTestId("provider-unavailable")).toHaveTextContent(
      "Signing in with Shopify is not available in Parley.",
    );
  });
});

describe("second-factor step", () => {
  const factor = { id: "f1", factor_type: "totp", status: "verified", friendly_name: "Phone", created_at: "", updated_at: "" };

  it("asks for the authenticator code: a wrong code is refused at the field, the right one goes on to ?redirect", async () => {
    const { client, auth } = fakeAuth({ getSession: vi.fn(async () => ({ data: { session: session() } })) });
    const mfa = auth.mfa as Record<string, ReturnType<typeof vi.fn>>;
    mfa.getAuthenticatorAssuranceLevel!.mockResolvedValue({ data: { currentLevel: "aal1", nextLevel: "aal2", currentAuthenticationMethods: [] }, error: null });
    mfa.listFactors!.mockResolvedValue({ data: { all: [factor], totp: [factor], phone: [] }, error: null });
    mfa.challengeAndVerify!.mockResolvedValueOnce({ data: null, error: { status: 422, code: "mfa_verification_failed", message: "Invalid TOTP code entered" } });
    renderPage(<MfaPage />, { url: "/app/auth/mfa?redirect=%2Fapp%2Faccount", path: "/app/auth/mfa", client, def: { title: "page.auth.mfa.title" } });
    const code = await screen.findByLabelText("Code from the authenticator app");
    await userEvent.type(code, "12");
    await userEvent.click(screen.getByRole("button", { name: "Verify" }));
    expect(screen.getByText(/That code is not right or has expired/)).toBeInTheDocument();
    expect(mfa.challengeAndVerify).not.toHaveBeenCalled();
    await userEvent.type(code, "3456");
    await userEvent.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByText(/That code is not right or has expired/)).toBeInTheDocument();
    expect(code).toHaveAttribute("aria-invalid", "true");
    await userEvent.type(code, "654 321{Enter}");
    expect(await screen.findByTestId("landed")).toHaveTextContent("/app/account");
    expect(mfa.challengeAndVerify).toHaveBeenLastCalledWith({ factorId: "f1", code: "654321" });
  });

  it("offers to sign out instead", async () => {
    const { client, auth } = fakeAuth({ getSession: vi.fn(async () => ({ data: { session: session() } })) });
    const mfa = auth.mfa as Record<string, ReturnType<typeof vi.fn>>;
    mfa.getAuthenticatorAssuranceLevel!.mockResolvedValue({ data: { currentLevel: "aal1", nextLevel: "aal2", currentAuthenticationMethods: [] }, error: null });
    mfa.listFactors!.mockResolvedValue({ data: { all: [factor], totp: [factor], phone: [] }, error: null });
    renderPage(<MfaPage />, { url: "/app/auth/mfa", path: "/app/auth/mfa", client });
    await userEvent.click(await screen.findByRole("button", { name: "Sign out" }));
    expect(auth.signOut).toHaveBeenCalled();
    expect(await screen.findByTestId("landed")).toHaveTextContent("/app/auth/login");
  });

  it("tells a platform administrator without a factor why, and leads to the account's two-factor panel", async () => {
    const { client } = fakeAuth({ getSession: vi.fn(async () => ({ data: { session: session() } })) });
    renderPage(<MfaPage />, { url: "/app/auth/mfa?redirect=%2Fapp%2Fadmin&reason=admin", path: "/app/auth/mfa", client });
    expect(await screen.findByRole("heading", { name: "Two-factor authentication required" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Set up two-factor authentication" })).toHaveAttribute("href", "/app/account#two-factor");
  });

  it("an OAuth sign-in of an account with a factor goes to the code step first", async () => {
    const { client, auth } = fakeAuth({ getSession: vi.fn(async () => ({ data: { session: session() } })) });
    (auth.mfa as Record<string, ReturnType<typeof vi.fn>>).getAuthenticatorAssuranceLevel!.mockResolvedValue({
      data: { currentLevel: "aal1", nextLevel: "aal2", currentAuthenticationMethods: [] },
      error: null,
    });
    renderPage(<ProviderCallbackPage />, { url: "/app/auth/providers/google/callback", path: "/app/auth/providers/google/callback", client, def: { meta: { provider: "google" } } });
    expect(await screen.findByTestId("landed")).toHaveTextContent("/app/auth/mfa?redirect=%2Fapp%2Fbots");
  });
});
