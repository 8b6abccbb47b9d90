// The chat's pieces that must never regress: the Markdown renderer keeps model text inert,
// Enter sends and Shift+Enter does not, images are checked before upload, and the SSE
// parser copes with events split anywhere.
import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { IntlProvider } from "react-intl";
import en from "../src/i18n/messages/en.json";
import chatEn from "../src/i18n/messages/chat/en.json";
import { Markdown, safeHref } from "../src/features/chat/Markdown";
import { Composer } from "../src/features/chat/Composer";
import { checkImage, MAX_IMAGE_BYTES, storageExtension } from "../src/features/chat/images";
import { readSse, SseParser } from "../src/lib/sse";
import { readChatEvents, toChatEvent } from "../src/data/chats/chat-stream";

const messages = { ...en, ...chatEn } as Record<string, string>;

function withIntl(ui: React.ReactNode) {
  return render(
    <IntlProvider locale="en" messages={messages}>
      {ui}
    </IntlProvider>,
  );
}

describe("Markdown", () => {
  it("renders the usual constructs as elements", () => {
    const { container } = withIntl(<Markdown text={"# Title\n\nSome **bold** and *em* and `code`.\n\n- one\n- two\n\n1. first\n\n```js\nlet x = 1;\n```\n\n> quoted"} />);
    expect(container.querySelector("h3")?.textContent).toBe("Title");
    expect(container.querySelector("strong")?.textContent).toBe("bold");
    expect(container.querySelector("em")?.textContent).toBe("em");
    expect(container.querySelectorAll("ul li")).toHaveLength(2);
    expect(container.querySelectorAll("ol li")).toHaveLength(1);
    expect(container.querySelector("pre code")?.textContent).toBe("let x = 1;");
    expect(container.querySelector("blockquote")?.textContent).toBe("quoted");
  });

  it("keeps raw HTML and scripts as text", () => {
    const evil = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned=2"> <b>hi</b> <iframe src="javascript:alert(1)"></iframe>';
    const { container } = withIntl(<Markdown text={evil} />);
    expect(container.querySelector("script, img, iframe, b")).toBeNull();
    expect(container.textContent).toContain("<script>window.__pwned = 1</script>");
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it("links only safe URLs, with rel noopener nofollow", () => {
    const { container } = withIntl(<Markdown text={"[ok](https://acme.test/help) [bad](javascript:alert(1)) [data](data:text/html,hi) see https://acme.test/x."} />);
    const links = [...container.querySelectorAll("a")];
    expect(links.map((a) => a.getAttribute("href"))).toEqual(["https://acme.test/help", "https://acme.test/x"]);
    for (const a of links) expect(a.getAttribute("rel")).toContain("noopener");
    for (const a of links) expect(a.getAttribute("rel")).toContain("nofollow");
    expect(container.textContent).toContain("bad");
    expect(safeHref(" JAVASCRIPT:alert(1)")).toBeNull();
    expect(safeHref("//evil.test")).toBeNull();
    expect(safeHref("/docs")).toBe("/docs");
  });

  it("turns [n] into citations only when asked", () => {
    const { container } = withIntl(<Markdown text="Share it [1]." citation={(n) => <sup data-n={n}>{n}</sup>} />);
    expect(container.querySelector("sup")?.getAttribute("data-n")).toBe("1");
  });
});

describe("Composer", () => {
  function setup() {
    const onSend = vi.fn();
    const onAddImages = vi.fn();
    withIntl(<Composer onSend={onSend} images={[]} onAddImages={onAddImages} onRemoveImage={() => {}} />);
    return { onSend, onAddImages, box: screen.getByRole("textbox", { name: "Message" }) };
  }

  it("sends on Enter and makes a new line on Shift+Enter", async () => {
    const user = userEvent.setup();
    const { onSend, box } = setup();
    await user.type(box, "first line{Shift>}{Enter}{/Shift}second line");
    expect(onSend).not.toHaveBeenCalled();
    expect(box).toHaveValue("first line\nsecond line");
    await user.type(box, "{Enter}");
    expect(onSend).toHaveBeenCalledWith("first line\nsecond line");
    expect(box).toHaveValue("");
  });

  it("does not send an empty message", async () => {
    const user = userEvent.setup();
    const { onSend, box } = setup();
    await user.type(box, "   {Enter}");
    expect(onSend).not.toHaveBeenCalled();
  });

  it("refuses unsupported and oversized files before upload, passes good ones on", async () => {
    const { onAddImages } = setup();
    fireEvent.click(screen.getByRole("button", { name: "Add images to the chat" }));
    expect(screen.getByRole("button", { name: "Browse" })).toBeInTheDocument();
    const input = screen.getByTestId("chat-file-input") as HTMLInputElement;
    const good = new File([new Uint8Array(10)], "cat.png", { type: "image/png" });
    const text = new File(["x"], "notes.txt", { type: "text/plain" });
    const huge = new File([new Uint8Array(MAX_IMAGE_BYTES + 1)], "huge.jpg", { type: "image/jpeg" });
    fireEvent.change(input, { target: { files: [good, text, huge] } });
    expect(onAddImages).toHaveBeenCalledWith([good]);
    const alert = screen.getByRole("alert");
    expect(alert).toHaveTextContent("notes.txt is not a supported image");
    expect(alert).toHaveTextContent("huge.jpg is larger than 5 MB");
  });
});

describe("image checks", () => {
  it("accepts the supported extensions up to 5 MiB", () => {
    for (const ext of ["png", "jpg", "jpeg", "webp", "gif", "PNG"]) expect(checkImage({ name: `a.${ext}`, size: 100 })).toBeNull();
    expect(checkImage({ name: "a.png", size: MAX_IMAGE_BYTES })).toBeNull();
    expect(checkImage({ name: "a.png", size: MAX_IMAGE_BYTES + 1 })).toBe("too_large");
    expect(checkImage({ name: "a.svg", size: 10 })).toBe("unsupported_type");
    expect(checkImage({ name: "a.png.exe", size: 10 })).toBe("unsupported_type");
    expect(checkImage({ name: "", size: 10, type: "image/png" })).toBeNull();
    expect(storageExtension({ name: "photo.JPEG" })).toBe("jpg");
  });
});

describe("SSE parser", () => {
  const stream = 'event: meta\ndata: {"chat_id":"c1","message_id":"m1"}\n\nevent: token\ndata: {"text":"Hel"}\n\nevent: token\r\ndata: {"text":"lo ✓"}\r\n\r\n: keep-alive\n\nevent: sources\ndata: [{"title":"Doc","url":"https://a.test"}]\n\nevent: done\ndata: {"message_id":"m1","latency_ms":5}\n\n';

  it("gives the same events however the stream is split", () => {
    const whole = new SseParser().push(stream);
    expect(whole.map((e) => e.event)).toEqual(["meta", "token", "token", "sources", "done"]);
    for (let size = 1; size < 12; size++) {
      const p = new SseParser();
      const got = [];
      for (let i = 0; i < stream.length; i += size) got.push(...p.push(stream.slice(i, i + size)));
      got.push(...p.end());
      expect(got).toEqual(whole);
    }
  });

  it("reads a byte stream split inside a UTF-8 character and maps errors", async () => {
    const bytes = new TextEncoder().encode(stream.replace(/event: done[\s\S]*$/, 'event: error\ndata: {"code":"provider_timeout","message":"slow"}'));
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += 3) c.enqueue(bytes.slice(i, i + 3));
        c.close();
      },
    });
    const events = [];
    for await (const e of readChatEvents(readSse(body))) events.push(e);
    expect(events.map((e) => e.event)).toEqual(["meta", "token", "token", "sources", "error"]);
    expect(events[2]).toEqual({ event: "token", data: { text: "lo ✓" } });
    expect(events[3]).toEqual({ event: "sources", data: [{ chunk_id: "", document_id: "", title: "Doc", url: "https://a.test", excerpt: "" }] });
    expect(events[4]).toEqual({ event: "error", data: { code: "provider_timeout", message: "slow" } });
  });

  it("drops malformed events instead of throwing", () => {
    expect(toChatEvent({ event: "token", data: "{not json" })).toBeNull();
    expect(toChatEvent({ event: "token", data: '{"nope":1}' })).toBeNull();
    expect(toChatEvent({ event: "error", data: "plain text" })).toEqual({ event: "error", data: { code: "internal_error", message: "plain text" } });
    expect(toChatEvent({ event: "error", data: '{"code":"made_up","message":"m"}' })).toEqual({ event: "error", data: { code: "internal_error", message: "m" } });
  });
});

describe("widget loader attributes", () => {
  it("validates data-* attributes with defaults and console errors", async () => {
    const err = vi.spyOn(console, "error").mockImplementation(() => {});
    const { readConfig, embedUrl } = await import("../../sdk/src/widget");
    const id = "c0000000-0000-4000-8000-000000000001";
    const ok = readConfig({ botId: id, position: "left", color: "#0f766e", open: "true", lang: "de" }, "https://app.test/widget.js");
    expect(ok).toEqual({ botId: id, position: "left", color: "#0f766e", open: true, lang: "de", origin: "https://app.test", greeting: "", greetingDelay: 5, hideOn: [], icon: "" });
    expect(embedUrl(ok!)).toBe(`https://app.test/de/bots/${id}/embed?color=%230f766e`);
    err.mockClear();
    const fallback = readConfig({ botId: id, position: "middle", color: "red;background:url(x)", open: "yes", lang: "xx" }, "https://app.test/widget.js");
    expect(fallback).toMatchObject({ position: "right", color: "#4f46e5", open: false, lang: "en" });
    expect(err).toHaveBeenCalledTimes(4);
    expect(readConfig({ botId: "nope" }, "https://app.test/widget.js")).toBeNull();
    err.mockRestore();
  });
});
