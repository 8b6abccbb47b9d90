// Channel screens' pieces: the credentials form shows only whether a secret is set and sends
// only what was typed; the status badge; a platform's refusal from channels-connect is shown
// with its reason; the list shows the web channel (it comes with the bot) with its embed code;
// the API reference is rendered from the OpenAPI document the api function serves.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { IntlProvider } from "react-intl";
import type { ReactNode } from "react";
import { createMemoryRouter, RouterProvider } from "react-router";
import shared from "../src/i18n/messages/en.json";
import channelsEn from "../src/i18n/messages/channels/en.json";

const rpcCalls: { fn: string; args: Record<string, unknown> }[] = [];
let channelRows: Channel[] = [];
let credentialStatus = [
  { name: "bot_token", is_set: true, updated_at: "2026-11-23T10:00:00Z" },
  { name: "signing_secret", is_set: false, updated_at: null },
];

vi.mock("../src/lib/supabase", () => ({
  getSupabase: () => ({
    auth: { getSession: async () => ({ data: { session: { access_token: "user-token", user: { id: "u1" } } } }) },
    from: (table: string) => {
      const q = { select: () => q, eq: () => q, order: async () => ({ data: table === "channels" ? channelRows : [], error: null }) };
      return q;
    },
    rpc: async (fn: string, args: Record<string, unknown>) => {
      rpcCalls.push({ fn, args });
      if (fn === "channel_credential_status") return { data: credentialStatus, error: null };
      return { data: null, error: null };
    },
  }),
}));
vi.mock("../src/data/channels/use-live-channels", () => ({ useLiveChannels: () => undefined }));
vi.mock("../src/lib/config", () => ({ getConfig: () => ({ supabaseUrl: "http://api.test", supabaseAnonKey: "anon", apiBaseUrl: "http://api.test/functions/v1", siteUrl: "http://app.test" }) }));

import { CredentialsForm } from "../src/features/channels/CredentialsForm";
import { ChannelStatusBadge } from "../src/features/channels/ChannelStatusBadge";
import { ChannelActions } from "../src/features/channels/ChannelActions";
import { receiverUrl } from "../src/features/channels/platforms";
import type { Channel } from "../src/data/channels/types";
import { ToastProvider } from "../src/components/ui";
import ChannelsPage from "../src/routes/app/channels/ChannelsPage";
import { ApiReference } from "../src/features/apiReference/ApiReference";
import { openApiDocument } from "../../supabase/functions/api/openapi";

const messages = { ...shared, ...channelsEn } as Record<string, string>;
const wrap = (children: ReactNode) => (
  <IntlProvider locale="en" messages={messages}>
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastProvider>{children}</ToastProvider>
    </QueryClientProvider>
  </IntlProvider>
);

const slack: Channel = {
  id: "d1000000-0000-4000-8000-000000000003", bot_id: "c0000000-0000-4000-8000-000000000001", type: "slack", name: "Acme workspace",
  enabled: true, settings: {}, status: "not_connected", last_error: null, last_event_at: null, message_count: 0, created_at: "2026-11-23T10:00:00Z",
};

beforeEach(() => {
  rpcCalls.length = 0;
  credentialStatus = [
    { name: "bot_token", is_set: true, updated_at: "2026-11-23T10:00:00Z" },
    { name: "signing_secret", is_set: false, updated_at: null },
  ];
});

describe("credentials form", { timeout: 20_000 }, () => {
  it("says which secrets are set, never shows values, and saves only what was typed", async () => {
    render(wrap(<CredentialsForm channel={slack} />));
    const token = await screen.findByLabelText("Bot token");
    await waitFor(() => expect(token).toHaveAttribute("data-secret-set", "true"));
    expect(token).toHaveValue("");
    expect(screen.getByText("Set")).toBeInTheDocument();
    expect(screen.getAllByText("Not set")).toHaveLength(2); // signing secret, client secret
    await userEvent.type(screen.getByLabelText("Signing secret"), "s3cret");
    await userEvent.click(screen.getByRole("button", { name: "Save credentials" }));
    await screen.findByText("Credentials saved.");
    expect(rpcCalls.find((c) => c.fn === "set_channel_credentials")?.args).toEqual({ channel_id: slack.id, credentials: { signing_secret: "s3cret" } });
    expect(screen.getByLabelText("Signing secret")).toHaveValue("");
  });
});

describe("status badge", () => {
  it("shows off for a disabled channel, else its status", () => {
    const { rerender } = render(wrap(<ChannelStatusBadge channel={{ enabled: false, status: "connected" }} />));
    expect(screen.getByText("Off")).toBeInTheDocument();
    rerender(wrap(<ChannelStatusBadge channel={{ enabled: true, status: "needs_attention" }} />));
    expect(screen.getByText("Needs attention")).toBeInTheDocument();
  });
});

describe("connect", { timeout: 20_000 }, () => {
  it("posts to channels-connect with the user's token and shows a platform's refusal", async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(JSON.stringify({ error: { code: "platform_error", message: "Slack refused auth.test: invalid_auth", details: { platform_code: "slack_invalid_auth" } } }), {
        status: 422, headers: { "content-type": "application/json" },
      });
    });
    render(wrap(<ChannelActions channel={slack} onDeleted={() => {}} />));
    await userEvent.click(screen.getByRole("button", { name: "Connect" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("The platform refused: Slack refused auth.test: invalid_auth");
    expect(calls[0]!.url).toBe("http://api.test/functions/v1/channels-connect");
    expect(new Headers(calls[0]!.init.headers).get("authorization")).toBe("Bearer user-token");
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ channel_id: slack.id, action: "connect" });
  });

  it("builds the receiver URL platforms deliver to", () => {
    expect(receiverUrl("http://api.test/functions/v1/", slack)).toBe(`http://api.test/functions/v1/channels/${slack.id}/slack`);
  });
});

describe("channel list", { timeout: 20_000 }, () => {
  it("shows the bot's web channel with its embed code, and no way to add a second one", async () => {
    const web: Channel = { ...slack, id: "d1000000-0000-4000-8000-000000000001", type: "web", name: "Website", status: "connected", message_count: 4, last_event_at: "2026-11-23T10:00:00Z" };
    channelRows = [web, slack];
    const router = createMemoryRouter([{ path: "/app/bots/:botId/channels", Component: ChannelsPage }], { initialEntries: [`/app/bots/${slack.bot_id}/channels`] });
    render(wrap(<RouterProvider router={router} />));
    const snippet = await screen.findByTestId("widget-snippet", {}, { timeout: 10_000 });
    const card = snippet.closest("[data-channel-type='web']") as HTMLElement;
    expect(within(card).getByRole("link", { name: "Website" }).getAttribute("href")).toBe(`/app/bots/${slack.bot_id}/channels/${web.id}/settings`);
    expect(within(card).getByText(/4 messages?/)).toBeTruthy();
    expect(snippet.textContent).toBe(`<script src="http://app.test/widget.js" data-bot-id="${slack.bot_id}" defer></script>`);
    expect(within(card).queryByRole("button", { name: /Add/ })).toBeNull();
    expect(screen.getByRole("button", { name: "Add a Slack channel" })).toBeTruthy();
  });

  it("offers no delete for the web channel (it goes with its bot)", () => {
    render(wrap(<ChannelActions channel={{ ...slack, type: "web" }} onDeleted={() => {}} />));
    expect(screen.queryByRole("button", { name: "Delete channel" })).toBeNull();
    render(wrap(<ChannelActions channel={slack} onDeleted={() => {}} />));
    expect(screen.getByRole("button", { name: "Delete channel" })).toBeTruthy();
  });
});

describe("API reference", { timeout: 20_000 }, () => {
  it("renders the OpenAPI document the api function serves, fetched without a session", async () => {
    const requests: Request[] = [];
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      requests.push(new Request(input, init));
      return Response.json(openApiDocument("http://api.test/functions/v1/api"));
    });
    try {
      render(wrap(<ApiReference />));
      const op = await screen.findByRole("article", { name: "POST /v1/chat" });
      expect(requests[0]!.url).toBe("http://api.test/functions/v1/api/v1/openapi.json");
      expect(requests[0]!.headers.get("authorization")).toBeNull();
      expect(screen.getByRole("heading", { name: "API reference", level: 2 })).toBeTruthy();
      expect(screen.getByTestId("api-reference-server").textContent).toBe("http://api.test/functions/v1/api");
      const message = within(op).getByText("message").closest("tr")!;
      expect(message.textContent).toContain("required");
      expect(message.textContent).toContain("string");
      expect(within(op).getByText("conversation_id").closest("tr")!.textContent).toContain("Continue a conversation this key started");
      expect(within(op).getByText("429")).toBeTruthy();
      expect(within(op).getByText("text/event-stream", { selector: "code" })).toBeTruthy(); // `...` in the document's texts is code
      expect(within(screen.getByRole("article", { name: "ChatAnswer" })).getByText("Source[]")).toBeTruthy();
      expect(screen.getByRole("link", { name: "Download the OpenAPI 3.1.0 document" }).getAttribute("href")).toBe("http://api.test/functions/v1/api/v1/openapi.json");
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("says so when the document cannot be loaded", async () => {
    vi.stubGlobal("fetch", async () => Response.json({ error: { code: "unavailable", message: "down" } }, { status: 404 }));
    try {
      render(wrap(<ApiReference />));
      expect((await screen.findByRole("alert")).textContent).toMatch(/could not be loaded/);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
