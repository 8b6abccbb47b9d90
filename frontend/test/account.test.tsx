// The account page: profile and avatar checks, language, password and email forms, and the
// delete confirmation showing the database's refusal for the last owner of a shared team.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { client, fake, renderScreen } from "./teams-fake-supabase";

vi.mock("../src/lib/supabase", () => ({ getSupabase: () => client }));
vi.mock("../src/lib/config", () => ({ getConfig: () => ({ supabaseUrl: "http://api.test", supabaseAnonKey: "anon-key" }) }));
vi.mock("../src/lib/session", () => ({ useSession: () => ({ status: "signedIn", user: { id: "11111111-1111-1111-1111-111111111111", email: "me@parley.test" } }) }));

import AccountPage from "../src/routes/app/account/AccountPage";

beforeEach(() => {
  fake.reset();
  vi.unstubAllGlobals();
  fake.on((c) => (c.table === "profiles" && c.op === "select" ? { data: [{ id: fake.userId, display_name: "Me", avatar_url: null, preferred_language: "en" }], error: null } : undefined));
  fake.on((c) => (c.table === "profiles" && c.op === "update" ? { data: [{ id: fake.userId }], error: null } : undefined));
});

describe("AccountPage", () => {
  it("saves the display name on the caller's profile", async () => {
    renderScreen(AccountPage, { path: "/app/account", url: "/app/account" });
    const name = await screen.findByLabelText("Display name");
    await userEvent.clear(name);
    await userEvent.type(name, "Olivia");
    await userEvent.click(screen.getAllByRole("button", { name: "Save" })[0]!);
    expect(await screen.findByText("Saved.")).toBeInTheDocument();
    const update = fake.calls.find((c) => c.op === "update");
    expect(update?.payload).toEqual({ display_name: "Olivia" });
    expect(update?.filters).toContain(`eq id ${fake.userId}`);
  });

  it("checks the avatar in the browser, then uploads it under the user's folder", async () => {
    renderScreen(AccountPage, { path: "/app/account", url: "/app/account" });
    const input = await screen.findByLabelText("Profile picture");
    // the native input is hidden (its texts follow the browser's language); a translated button opens it
    expect(input).not.toBeVisible();
    const choose = screen.getByRole("button", { name: "Choose an image" });
    expect(choose).toHaveAccessibleDescription("No image chosen");
    const opened = vi.spyOn(input, "click");
    choose.focus();
    await userEvent.keyboard("{Enter}");
    expect(opened).toHaveBeenCalledTimes(1);
    fireEvent.change(input, { target: { files: [new File([new Uint8Array(2 * 1024 * 1024)], "big.jpg", { type: "image/jpeg" })] } });
    expect(await screen.findByText("This image is larger than 1 MB.")).toBeInTheDocument();
    expect(choose).toHaveAccessibleDescription("big.jpg");
    expect(fake.calls.some((c) => c.kind === "upload")).toBe(false);
    fireEvent.change(input, { target: { files: [new File(["jpg"], "me.jpg", { type: "image/jpeg" })] } });
    await waitFor(() => expect(fake.calls.find((c) => c.kind === "upload")?.name).toMatch(new RegExp(`^${fake.userId}/profile-\\d+\\.jpg$`)));
    await waitFor(() => expect(fake.calls.find((c) => c.op === "update")?.payload).toMatchObject({ avatar_url: expect.stringContaining("/avatars/") }));
  });

  it("the preferred language is saved and switches the interface", async () => {
    const router = renderScreen(AccountPage, { path: "/app/account", url: "/app/account", extra: [{ path: "/de/app/account", element: <p>deutsch</p> }] });
    await userEvent.selectOptions(await screen.findByLabelText("Preferred language"), "de");
    await userEvent.click(screen.getAllByRole("button", { name: "Save" })[1]!);
    await waitFor(() => expect(router.state.location.pathname).toBe("/de/app/account"));
    expect(fake.calls.find((c) => c.op === "update")?.payload).toEqual({ preferred_language: "de" });
  });

  it("password: at least 8 characters and repeated the same; then auth.updateUser", async () => {
    renderScreen(AccountPage, { path: "/app/account", url: "/app/account" });
    await userEvent.type(await screen.findByLabelText("New password"), "short");
    await userEvent.click(screen.getByRole("button", { name: "Change password" }));
    expect(screen.getByText("At least 8 characters.")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("New password"), "-enough");
    await userEvent.type(screen.getByLabelText("Repeat the new password"), "different");
    await userEvent.click(screen.getByRole("button", { name: "Change password" }));
    expect(screen.getByText("The passwords do not match.")).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText("Repeat the new password"));
    await userEvent.type(screen.getByLabelText("Repeat the new password"), "short-enough");
    await userEvent.click(screen.getByRole("button", { name: "Change password" }));
    expect(await screen.findByText("Your password has been changed.")).toBeInTheDocument();
    // no current password given (a user who never set one): auth decides whether it is needed
    expect(fake.calls.find((c) => c.kind === "updateUser")?.args).toEqual({ password: "short-enough" });
  });

  it("password: sends the current password for Supabase's secure password change, and says at its field when auth refuses it", async () => {
    fake.on((c) => (c.kind === "updateUser" && (c.args as { current_password?: string }).current_password === "wrong-one"
      ? { data: null, error: { status: 400, code: "current_password_mismatch", message: "Current password required when setting new password." } } : undefined));
    fake.on((c) => (c.kind === "updateUser" && !(c.args as { current_password?: string }).current_password
      ? { data: null, error: { status: 400, code: "reauthentication_needed", message: "Password update requires reauthentication" } } : undefined));
    renderScreen(AccountPage, { path: "/app/account", url: "/app/account" });
    const current = await screen.findByLabelText("Current password");
    expect(current).toHaveAttribute("autocomplete", "current-password");
    await userEvent.type(screen.getByLabelText("New password"), "brand-new-pass");
    await userEvent.type(screen.getByLabelText("Repeat the new password"), "brand-new-pass");
    await userEvent.click(screen.getByRole("button", { name: "Change password" }));
    expect(await screen.findByText("Enter your current password to set a new one.")).toBeInTheDocument();
    expect(current).toHaveAttribute("aria-invalid", "true");
    await userEvent.type(current, "wrong-one");
    await userEvent.click(screen.getByRole("button", { name: "Change password" }));
    expect(await screen.findByText("The current password is not correct.")).toBeInTheDocument();
    expect(screen.queryByText(/Current password required/)).not.toBeInTheDocument();
    await userEvent.clear(current);
    await userEvent.type(current, "old-password-1");
    await userEvent.click(screen.getByRole("button", { name: "Change password" }));
    expect(await screen.findByText("Your password has been changed.")).toBeInTheDocument();
    expect(fake.calls.filter((c) => c.kind === "updateUser").at(-1)?.args).toEqual({ password: "brand-new-pass", current_password: "old-password-1" });
    expect(current).toHaveValue("");
  });

  it("password: or with a code auth mails (reauthenticate), given to updateUser as the nonce", async () => {
    fake.on((c) => (c.kind === "updateUser" && (c.args as { nonce?: string }).nonce === "000000"
      ? { data: null, error: { status: 400, code: "reauthentication_not_valid", message: "Requested nonce is invalid or expired" } } : undefined));
    renderScreen(AccountPage, { path: "/app/account", url: "/app/account" });
    await userEvent.click(await screen.findByRole("button", { name: "Send me a code by e-mail instead" }));
    const code = await screen.findByLabelText("Code from the e-mail");
    expect(fake.calls.filter((c) => c.kind === "reauthenticate")).toHaveLength(1);
    expect(screen.queryByLabelText("Current password")).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("New password"), "brand-new-pass");
    await userEvent.type(screen.getByLabelText("Repeat the new password"), "brand-new-pass");
    await userEvent.click(screen.getByRole("button", { name: "Change password" }));
    expect(screen.getByText("Enter the code from the e-mail.")).toBeInTheDocument();
    expect(fake.calls.some((c) => c.kind === "updateUser")).toBe(false);
    await userEvent.type(code, "000000");
    await userEvent.click(screen.getByRole("button", { name: "Change password" }));
    expect(await screen.findByText("The verification code is not valid or has expired.")).toBeInTheDocument();
    expect(code).toHaveAttribute("aria-invalid", "true");
    await userEvent.clear(code);
    await userEvent.type(code, "123 456");
    await userEvent.click(screen.getByRole("button", { name: "Change password" }));
    expect(await screen.findByText("Your password has been changed.")).toBeInTheDocument();
    expect(fake.calls.filter((c) => c.kind === "updateUser").at(-1)?.args).toEqual({ password: "brand-new-pass", nonce: "123 456".replace(" ", "") });
    expect(await screen.findByLabelText("Current password")).toHaveValue("");
  });

  it("two-factor: enrol shows the QR code and the key, a wrong code is refused, the right one turns it on; removing asks first", async () => {
    fake.on((c) => (c.kind === "mfa" && c.name === "challengeAndVerify" && (c.args as { code: string }).code === "111111"
      ? { data: null, error: { status: 422, code: "mfa_verification_failed", message: "Invalid TOTP code entered" } } : undefined));
    renderScreen(AccountPage, { path: "/app/account", url: "/app/account" });
    expect(await screen.findByText("No authenticator app is set up.")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/Name of the authenticator/), "Phone");
    await userEvent.click(screen.getByRole("button", { name: "Set up an authenticator app" }));
    expect(await screen.findByRole("img", { name: "QR code for your authenticator app" })).toHaveAttribute("src", `data:image/svg+xml;charset=utf-8,${encodeURIComponent("<svg/>")}`);
    expect(screen.getByText("JBSWY3DPEHPK3PXP")).toBeInTheDocument();
    expect(fake.calls.find((c) => c.kind === "mfa" && c.name === "enroll")?.args).toEqual({ factorType: "totp", friendlyName: "Phone" });
    const code = screen.getByLabelText("Six-digit code from the app");
    await userEvent.type(code, "12");
    await userEvent.click(screen.getByRole("button", { name: "Verify and turn on" }));
    expect(screen.getByText(/That code is not right or has expired/)).toBeInTheDocument();
    await userEvent.clear(code);
    await userEvent.type(code, "111111");
    await userEvent.click(screen.getByRole("button", { name: "Verify and turn on" }));
    expect(await screen.findByText(/That code is not right or has expired/)).toBeInTheDocument();
    await userEvent.clear(code);
    await userEvent.type(code, "123456{Enter}");
    expect(await screen.findByText(/Two-factor authentication is on/)).toBeInTheDocument();
    expect(fake.calls.filter((c) => c.kind === "mfa" && c.name === "challengeAndVerify").at(-1)?.args).toEqual({ factorId: "f-new", code: "123456" });
    await userEvent.click(await screen.findByRole("button", { name: "Remove Authenticator app" }));
    await userEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Remove" }));
    expect(await screen.findByText("No authenticator app is set up.")).toBeInTheDocument();
    expect(fake.calls.find((c) => c.kind === "mfa" && c.name === "unenroll")?.args).toEqual({ factorId: "f-new" });
  });

  it("email change asks auth for a confirmation mail", async () => {
    renderScreen(AccountPage, { path: "/app/account", url: "/app/account" });
    await userEvent.type(await screen.findByLabelText("New email address"), "me@parley.test");
    await userEvent.click(screen.getByRole("button", { name: "Change email" }));
    expect(screen.getByText("Enter a valid email address different from the current one.")).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText("New email address"));
    await userEvent.type(screen.getByLabelText("New email address"), "new@parley.test");
    await userEvent.click(screen.getByRole("button", { name: "Change email" }));
    expect(await screen.findByText(/We sent a confirmation link to new@parley.test/)).toBeInTheDocument();
    expect(fake.calls.find((c) => c.kind === "updateUser")?.args).toEqual({ email: "new@parley.test" });
  });

  it("deleting the account shows the last-owner refusal", async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ error: { code: "last_owner", message: "You are the last owner of a shared team", details: { teams: ["Acme"] } } }), { status: 409 }));
    vi.stubGlobal("fetch", fetchMock);
    renderScreen(AccountPage, { path: "/app/account", url: "/app/account" });
    await userEvent.click(await screen.findByRole("button", { name: "Delete my account" }));
    const confirm = screen.getAllByRole("button", { name: "Delete my account" }).at(-1)!;
    expect(confirm).toBeDisabled();
    await userEvent.type(screen.getByLabelText("Type me@parley.test to confirm"), "me@parley.test");
    await userEvent.click(confirm);
    expect(await screen.findByText("A team must keep at least one owner.")).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("http://api.test/functions/v1/account-delete");
    expect(JSON.parse(String(init.body))).toEqual({ confirm: "DELETE" });
  });
});
