// The visitor's side of power-ups: the chat stream's tool/lead_form/link/handoff events and the
// stored turn's actions show the same things (a tool line, a link button, a lead form sent
// through submit_lead, a handoff notice), a person's reply is shown as theirs, and all of it
// is rendered as text.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { IntlProvider } from "react-intl";
import type { ChatEvent } from "@shared/contracts/chat.ts";
import en from "../src/i18n/messages/en.json";
import chatEn from "../src/i18n/messages/chat/en.json";
import de from "../src/i18n/messages/de.json";
import chatDe from "../src/i18n/messages/chat/de.json";

const CHAT = "f9000000-0000-4000-8000-000000000001";
const LEAD = "d1000000-0000-4000-8000-000000000001";
const USER = "11111111-1111-1111-1111-111111111111";

// The stream of the next send, the stored chat of the next read, and the RPCs the form makes.
const fake = {
  events: [] as ChatEvent[],
  stored: null as unknown,
  rpc: vi.fn(),
  announce: null as null | (() => void),
};

vi.mock("../src/data/chats/chat-stream", async (original) => ({
  ...(await original<typeof import("../src/data/chats/chat-stream")>()),
  sendChatMessage: async function* () {
    for (const ev of fake.events) yield ev;
  },
}));
vi.mock("../src/data/chats/use-chat-announcements", () => ({
  useChatAnnouncements: (_chatId: string | undefined, on: () => void) => {
    fake.announce = on;
  },
}));
vi.mock("../src/lib/supabase-ready", () => ({
  loadSupabase: async () => ({
    rpc: fake.rpc,
    from: (table: string) => {
      const chain = {
        select: () => chain,
        eq: () => chain,
        order: () => Promise.resolve({ data: table === "messages" ? (fake.stored as { messages: unknown[] }).messages : [], error: null }),
        maybeSingle: () => Promise.resolve({ data: table === "chats" ? (fake.stored as { chat: unknown }).chat : null, error: null }),
      };
      return chain;
    },
  }),
}));

import { ToastProvider } from "../src/components/ui";
import { toChatEvent } from "../src/data/chats/chat-stream";
import { readActions, toChatMessage } from "../src/data/chats/types";
import type { ChatDetail } from "../src/data/chats/chat-query";
import { MessageItem, type ViewMessage } from "../src/features/chat/MessageItem";
import { leadFormErrors } from "../src/features/chat/LeadForm";
import { safeLinkUrl } from "../src/features/chat/PowerUpActions";
import { toView } from "../src/features/chat/live";
import { useChatStream } from "../src/features/chat/useChatStream";

const english = { ...en, ...chatEn } as Record<string, string>;
const german = { ...de, ...chatDe } as Record<string, string>;

function providers(ui: React.ReactNode, locale = "en") {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return (
    <QueryClientProvider client={qc}>
      <IntlProvider locale={locale} messages={locale === "de" ? german : english}>
        <ToastProvider>{ui}</ToastProvider>
      </IntlProvider>
    </QueryClientProvider>
  );
}

/** A chat like ChatView's: the turns of useChatStream, a button that sends, the handoff banner. */
function Harness({ existing }: { existing?: ChatDetail }) {
  const stream = useChatStream(existing?.chat.id, USER, existing);
  return (
    <>
      <ol>
        {stream.messages.map((m) => (
          <MessageItem key={m.key} message={m} botId="b" botName="Acme Bot" canGiveFeedback chatId={stream.chatId} />
        ))}
      </ol>
      {stream.withPerson && <p data-testid="with-person">with a person</p>}
      <button type="button" onClick={() => void stream.send("hello", { botId: "b", channel: "web", images: [], ensureVisitor: async () => USER })}>
        send
      </button>
    </>
  );
}

const meta: ChatEvent = { event: "meta", data: { chat_id: CHAT, message_id: "m2", user_message_id: "m1" } };
const done: ChatEvent = { event: "done", data: { message_id: "m2", usage: { prompt_tokens: 0, completion_tokens: 0 }, latency_ms: 5, first_token_ms: 1 } };
const leadForm = { power_up_id: LEAD, label: "Contact sales", intro: "We will call you back.", fields: ["name", "email", "phone"] as const, required: ["email"] as const };

function storedAnswer(actions: unknown[], content = "Here you go.") {
  return { id: "m2", role: "assistant", content, sources: [], images: [], actions, error: null, created_at: "2026-11-27T20:00:00Z" };
}
function detail(messages: unknown[], needsHuman = false): ChatDetail {
  return {
    chat: { id: CHAT, bot_id: "b", user_id: USER, title: null, shared: false, needs_human: needsHuman },
    messages: messages.map((m) => toChatMessage(m as Parameters<typeof toChatMessage>[0])),
    readOnly: false,
  };
}

async function sendWith(events: ChatEvent[], existing?: ChatDetail) {
  fake.events = events;
  render(providers(<Harness existing={existing} />));
  await userEvent.click(screen.getByRole("button", { name: "send" }));
}

beforeEach(() => {
  fake.events = [];
  fake.stored = null;
  fake.rpc.mockReset();
  fake.announce = null;
});

describe("power-up events in the chat stream", () => {
  it("reads tool, lead_form, link, handoff and a quiet done; drops malformed ones", () => {
    const sse = (event: string, data: unknown) => toChatEvent({ event, data: JSON.stringify(data) });
    expect(sse("tool", { name: "lookup_order", label: "Looked up your order", ok: true })).toEqual({ event: "tool", data: { name: "lookup_order", label: "Looked up your order", ok: true } });
    expect(sse("link", { power_up_id: "p", label: "Book", url: "https://cal.test/x" })).toEqual({ event: "link", data: { power_up_id: "p", label: "Book", url: "https://cal.test/x" } });
    expect(sse("lead_form", { ...leadForm, fields: ["name", "email", "fax"], required: ["email", "fax"] })).toEqual({
      event: "lead_form",
      data: { power_up_id: LEAD, label: "Contact sales", intro: "We will call you back.", fields: ["name", "email"], required: ["email"] },
    });
    expect(sse("handoff", { text: "Sam answers within a day." })).toEqual({ event: "handoff", data: { text: "Sam answers within a day." } });
    expect(sse("done", { message_id: "", quiet: true })).toMatchObject({ event: "done", data: { quiet: true } });
    expect(sse("link", { label: "no url" })).toBeNull();
    expect(sse("lead_form", { power_up_id: LEAD, fields: ["fax"] })).toBeNull();
  });

  it("reads stored actions the same way, dropping unknown ones", () => {
    expect(readActions([{ type: "link", label: "Book", url: "https://cal.test" }, { type: "confetti" }, "x", { type: "tool", name: "n", label: "", ok: false }])).toEqual([
      { type: "link", power_up_id: "", label: "Book", url: "https://cal.test" },
      { type: "tool", name: "n", label: "n", ok: false },
    ]);
  });
});

describe("link button", () => {
  it("opens only http(s) URLs in a new tab, without referrer or opener", () => {
    expect(safeLinkUrl("https://cal.test/book?x=1")).toBe("https://cal.test/book?x=1");
    expect(safeLinkUrl("http://cal.test")).toBe("http://cal.test/");
    for (const bad of ["javascript:alert(1)", " JAVASCRIPT:alert(1)", "data:text/html,hi", "//evil.test", "/relative", "mailto:a@b.c", "not a url"]) expect(safeLinkUrl(bad), bad).toBeNull();
  });

  it("shows the button the stream offers in the answer", async () => {
    await sendWith([meta, { event: "token", data: { text: "Pick a time." } }, { event: "link", data: { power_up_id: "p", label: "Book a meeting", url: "https://cal.test/you" } }, done]);
    const link = await screen.findByRole("link", { name: "Book a meeting" });
    expect(link).toHaveAttribute("href", "https://cal.test/you");
    expect(link).toHaveAttribute("target", "_blank");
    expect(link.getAttribute("rel")).toContain("noopener");
    expect(link.getAttribute("rel")).toContain("noreferrer");
    expect(within(screen.getByTestId("chat-answer")).getByText("Pick a time.")).toBeInTheDocument();
  });

  it("shows it again from the stored turn after a reload, and never a javascript: link", () => {
    const existing = detail([
      storedAnswer([
        { type: "link", power_up_id: "p", label: "Book a meeting", url: "https://cal.test/you" },
        { type: "link", power_up_id: "q", label: "<img src=x onerror=alert(1)>", url: "javascript:alert(1)" },
      ]),
    ]);
    const { container } = render(providers(<Harness existing={existing} />));
    expect(screen.getByRole("link", { name: "Book a meeting" })).toHaveAttribute("href", "https://cal.test/you");
    expect(container.querySelectorAll("a[href^='javascript']")).toHaveLength(0);
    expect(container.querySelector("img")).toBeNull();
  });
});

describe("tool line", () => {
  it("says which action the bot took, before the answer, in the visitor's language", async () => {
    fake.events = [meta, { event: "tool", data: { name: "lookup_order", label: "Looked up your order", ok: true } }, { event: "token", data: { text: "It ships today." } }, done];
    render(providers(<Harness />, "de"));
    await userEvent.click(screen.getByRole("button", { name: "send" }));
    const answer = await screen.findByTestId("chat-answer");
    await within(answer).findByText("It ships today.");
    const line = within(answer).getByRole("listitem");
    expect(line).toHaveTextContent("Aktion: Looked up your order");
    expect(answer.textContent!.indexOf("Aktion")).toBeLessThan(answer.textContent!.indexOf("It ships today."));
  });

  it("says a failed action plainly, with the power-up's name when it has no label, from the stored turn", () => {
    render(providers(<Harness existing={detail([storedAnswer([{ type: "tool", name: "lookup_order", label: "", ok: false, message: "Error: 500 at line 3" }])])} />));
    expect(screen.getByText("Could not use lookup_order; the bot answered without it.")).toBeInTheDocument();
    expect(screen.queryByText(/line 3/)).toBeNull();
  });
});

describe("lead form", () => {
  it("asks for the owner's fields, checks them, and sends them through submit_lead", async () => {
    fake.rpc.mockResolvedValue({ data: "lead-1", error: null });
    await sendWith([meta, { event: "token", data: { text: "Leave your details." } }, { event: "lead_form", data: { ...leadForm, fields: [...leadForm.fields], required: [...leadForm.required] } }, done]);
    const form = await screen.findByRole("form", { name: "Contact sales" });
    expect(within(form).getByText("We will call you back.")).toBeInTheDocument();
    expect(within(form).queryByLabelText(/Company/)).toBeNull();
    const email = within(form).getByLabelText(/E-mail/);
    expect(email).toBeRequired();
    expect(within(form).getByLabelText(/Name/)).not.toBeRequired();

    await userEvent.click(within(form).getByRole("button", { name: "Send details" }));
    expect(email).toHaveAttribute("aria-invalid", "true");
    expect(email).toHaveAccessibleDescription("Please fill in this field.");
    expect(email).toHaveFocus();
    await userEvent.type(email, "not-an-address");
    await userEvent.type(within(form).getByLabelText(/Phone/), "call me");
    await userEvent.click(within(form).getByRole("button", { name: "Send details" }));
    expect(email).toHaveAccessibleDescription("Enter a valid e-mail address, like name@example.com.");
    expect(within(form).getByLabelText(/Phone/)).toHaveAttribute("aria-invalid", "true");
    expect(fake.rpc).not.toHaveBeenCalled();

    await userEvent.clear(email);
    await userEvent.type(email, "vera@acme.test");
    await userEvent.clear(within(form).getByLabelText(/Phone/));
    await userEvent.type(within(form).getByLabelText(/Name/), "  Vera  ");
    await userEvent.click(within(form).getByRole("button", { name: "Send details" }));
    expect(await screen.findByText("Thank you! Your details were sent.")).toBeInTheDocument();
    expect(fake.rpc).toHaveBeenCalledWith("submit_lead", { chat_id: CHAT, power_up_id: LEAD, fields: { name: "Vera", email: "vera@acme.test" } });
    expect(screen.queryByRole("form")).toBeNull();
  });

  it("shows the server's refusal and lets the visitor try again", async () => {
    fake.rpc.mockResolvedValueOnce({ data: null, error: { code: "PT429", message: "Too many forms sent", hint: "rate_limited", details: null } });
    fake.rpc.mockResolvedValueOnce({ data: null, error: { message: "Failed to fetch", code: "" } });
    render(providers(<Harness existing={detail([storedAnswer([{ type: "lead_form", ...leadForm }])])} />));
    const form = screen.getByRole("form", { name: "Contact sales" });
    await userEvent.type(within(form).getByLabelText(/E-mail/), "vera@acme.test");
    await userEvent.click(within(form).getByRole("button", { name: "Send details" }));
    expect(await within(form).findByRole("alert")).toHaveTextContent("Too many forms were sent. Please try again later.");
    await userEvent.click(within(form).getByRole("button", { name: "Send details" }));
    await waitFor(() => expect(within(form).getByRole("alert")).toHaveTextContent("Your details could not be sent. Please try again."));
    expect(within(form).getByLabelText(/E-mail/)).toHaveValue("vera@acme.test");
  });

  it("shows a sent form as sent after a reload", async () => {
    fake.rpc.mockResolvedValue({ data: "lead-1", error: null });
    const existing = detail([storedAnswer([{ type: "lead_form", ...leadForm }])]);
    const first = render(providers(<Harness existing={existing} />));
    await userEvent.type(screen.getByLabelText(/E-mail/), "vera@acme.test");
    await userEvent.click(screen.getByRole("button", { name: "Send details" }));
    await screen.findByText("Thank you! Your details were sent.");
    first.unmount();
    render(providers(<Harness existing={existing} />));
    expect(screen.getByText("Thank you! Your details were sent.")).toBeInTheDocument();
    expect(screen.queryByRole("form")).toBeNull();
  });

  it("is not offered to readers of a shared chat", () => {
    const view: ViewMessage = { ...toView(detail([storedAnswer([{ type: "lead_form", ...leadForm }])]).messages[0]!) };
    render(providers(<MessageItem message={view} botId="b" botName="Acme Bot" canGiveFeedback={false} />));
    expect(screen.queryByRole("form")).toBeNull();
    expect(screen.getByText("A contact form was offered here: Contact sales")).toBeInTheDocument();
  });

  it("checks fields as submit_lead does", () => {
    const form = { fields: ["email", "phone", "message"] as const, required: ["phone"] as const };
    const check = (values: Record<string, string>) => leadFormErrors({ fields: [...form.fields], required: [...form.required] }, values);
    expect(check({ phone: "+49 (0)30 123-45" })).toEqual({});
    expect(check({})).toEqual({ phone: "chat.lead.error.required" });
    expect(check({ phone: "1234", email: "a@b" })).toEqual({ phone: "chat.lead.error.phone", email: "chat.lead.error.email" });
    expect(check({ phone: "12345", message: "x".repeat(2001) })).toEqual({ message: "chat.lead.error.tooLong" });
  });
});

describe("handoff", () => {
  it("says who will answer and that the bot is quiet; a quiet answer leaves no empty bubble", async () => {
    await sendWith([meta, { event: "token", data: { text: "Let me get someone." } }, { event: "handoff", data: { text: "Sam from support answers here within a day." } }, done]);
    const note = await screen.findByRole("note");
    expect(note).toHaveTextContent("A person from the team will take over this conversation.");
    expect(note).toHaveTextContent("Sam from support answers here within a day.");
    expect(screen.getByTestId("with-person")).toBeInTheDocument();
  });

  it("does not say the handoff's sentence twice when it is the answer (the extractive default)", async () => {
    const text = "Sam from support answers here within a day.";
    await sendWith([meta, { event: "token", data: { text } }, { event: "handoff", data: { text } }, done]);
    const note = await screen.findByRole("note");
    expect(note).not.toHaveTextContent(text);
    expect(screen.getAllByText(text)).toHaveLength(1);
  });

  it("keeps the bot quiet while a person has the chat, and shows their reply live and distinctly", async () => {
    const existing = detail([{ id: "m1", role: "user", content: "Help", sources: [], images: [], actions: [], error: null, created_at: "2026-11-27T20:00:00Z" }, storedAnswer([{ type: "handoff", text: "Sam answers." }], "Let me get someone.")], true);
    await sendWith([{ ...meta, data: { ...meta.data, message_id: "m4", user_message_id: "m3" } }, { event: "done", data: { ...done.data, message_id: "m4", quiet: true } }], existing);
    await waitFor(() => expect(screen.getAllByRole("listitem").filter((li) => li.getAttribute("aria-busy"))).toHaveLength(0));
    expect(screen.getAllByTestId("chat-answer")).toHaveLength(1);
    expect(screen.getByTestId("with-person")).toBeInTheDocument();

    // The person's reply is announced on the chat's topic; the visitor's tab reads the chat again.
    const now = new Date().toISOString();
    fake.stored = {
      chat: existing.chat,
      messages: [
        { id: "m1", role: "user", content: "Help", sources: [], images: [], actions: [], error: null, created_at: now },
        storedAnswer([{ type: "handoff", text: "Sam answers." }], "Let me get someone."),
        { id: "m3", role: "user", content: "hello", sources: [], images: [], actions: [], error: null, created_at: now },
        { id: "m5", role: "human", content: "Hi, Sam here. <b>How</b> can I help?", sources: [], images: [], actions: [], error: null, created_at: now },
      ],
    };
    await act(async () => fake.announce?.());
    const reply = await screen.findByTestId("chat-human-reply");
    expect(reply).toHaveTextContent("Reply from a person of the team");
    expect(reply).toHaveTextContent("Hi, Sam here. <b>How</b> can I help?");
    expect(reply.querySelector("b")).toBeNull();
    expect(screen.getAllByTestId("chat-answer")).toHaveLength(1);
  });

  it("after a reload, shows a chat with a person as such, without a pending answer", async () => {
    const now = new Date().toISOString();
    const existing = detail([{ id: "m1", role: "user", content: "Anyone?", sources: [], images: [], actions: [], error: null, created_at: now }], true);
    fake.stored = { chat: existing.chat, messages: existing.messages.map((m) => ({ ...m, actions: [] })) };
    render(providers(<Harness existing={existing} />));
    expect(screen.getByTestId("with-person")).toBeInTheDocument();
    await act(async () => fake.announce?.());
    expect(screen.queryByTestId("chat-answer")).toBeNull();
  });

  it("a chat handed back while open loses the notice when it is read again (the chat row's change is announced)", async () => {
    const existing = detail([storedAnswer([{ type: "handoff", text: "Sam answers." }])], true);
    fake.stored = { chat: { ...existing.chat, needs_human: false }, messages: [storedAnswer([{ type: "handoff", text: "Sam answers." }])] };
    render(providers(<Harness existing={existing} />));
    expect(screen.getByTestId("with-person")).toBeInTheDocument();
    await act(async () => fake.announce?.());
    await waitFor(() => expect(screen.queryByTestId("with-person")).toBeNull());
    expect(screen.getByRole("note")).toHaveTextContent("Sam answers.");
  });

  it("an answer from the bot means the chat was handed back", async () => {
    const existing = detail([storedAnswer([])], true);
    await sendWith([meta, { event: "token", data: { text: "Back again." } }, done], existing);
    await screen.findByText("Back again.");
    expect(screen.queryByTestId("with-person")).toBeNull();
  });
});
