import { describe, expect, it, vi } from "vitest";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { IntlProvider } from "react-intl";
import type { ReactNode } from "react";
import en from "../src/i18n/messages/en.json";
import { Button, BUTTON_SIZES, BUTTON_THEMES, Dialog, Loading, Menu, Tabs, ToastProvider, useToast, EmptyState, Input } from "../src/components/ui";

const wrap = (ui: ReactNode) => render(<IntlProvider locale="en" messages={en}>{ui}</IntlProvider>);

describe("Button", () => {
  it("is a type=button by default and can submit", () => {
    wrap(
      <>
        <Button>Plain</Button>
        <Button type="submit">Send</Button>
      </>,
    );
    expect(screen.getByRole("button", { name: "Plain" })).toHaveAttribute("type", "button");
    expect(screen.getByRole("button", { name: "Send" })).toHaveAttribute("type", "submit");
  });

  it("renders every size and theme as classes", () => {
    wrap(
      <>
        {BUTTON_SIZES.map((s) => <Button key={s} size={s}>{`size ${s}`}</Button>)}
        {BUTTON_THEMES.map((t) => <Button key={t} theme={t}>{`theme ${t}`}</Button>)}
      </>,
    );
    for (const s of BUTTON_SIZES) expect(screen.getByRole("button", { name: `size ${s}` })).toHaveClass("btn", `btn--${s}`, "btn--primary");
    for (const t of BUTTON_THEMES) expect(screen.getByRole("button", { name: `theme ${t}` })).toHaveClass(`btn--${t}`, "btn--base");
  });

  it("supports block and grouped left/middle/right", () => {
    wrap(
      <>
        <Button block>Wide</Button>
        <Button grouped="left">L</Button>
        <Button grouped="middle">M</Button>
        <Button grouped="right">R</Button>
      </>,
    );
    expect(screen.getByRole("button", { name: "Wide" })).toHaveClass("btn--block");
    expect(screen.getByRole("button", { name: "L" })).toHaveClass("btn--group-left");
    expect(screen.getByRole("button", { name: "M" })).toHaveClass("btn--group-middle");
    expect(screen.getByRole("button", { name: "R" })).toHaveClass("btn--group-right");
  });

  it("loading shows a spinner and disables the button; disabled blocks clicks", async () => {
    const onClick = vi.fn();
    wrap(
      <>
        <Button loading onClick={onClick}>Save</Button>
        <Button disabled onClick={onClick}>Off</Button>
      </>,
    );
    const save = screen.getByRole("button", { name: /Save/ });
    expect(save).toBeDisabled();
    expect(save).toHaveAttribute("aria-busy", "true");
    expect(save.querySelector(".spinner")).not.toBeNull();
    await userEvent.click(save);
    await userEvent.click(screen.getByRole("button", { name: "Off" }));
    expect(onClick).not.toHaveBeenCalled();
  });
});

describe("other primitives", () => {
  it("Loading says Loading...", () => {
    wrap(<Loading />);
    expect(screen.getByRole("status")).toHaveTextContent("Loading...");
  });

  it("Input is labelled and announces errors", () => {
    wrap(<Input label="Email" error="Required" />);
    const input = screen.getByLabelText("Email");
    expect(input).toHaveAttribute("aria-invalid", "true");
    expect(input).toHaveAccessibleDescription("Required");
  });

  it("Toast shows the standard texts", async () => {
    function Copy() {
      const toast = useToast();
      return (
        <>
          <button onClick={() => toast.show("toast.copied")}>a</button>
          <button onClick={() => toast.show("toast.chatUrlCopied")}>b</button>
          <button onClick={() => toast.show("toast.linkCopied")}>c</button>
          <button onClick={() => toast.show("toast.feedbackThanks")}>d</button>
        </>
      );
    }
    wrap(<ToastProvider><Copy /></ToastProvider>);
    for (const n of ["a", "b", "c"]) await userEvent.click(screen.getByText(n));
    expect(screen.getByText("Copied to clipboard")).toBeInTheDocument();
    expect(screen.getByText("Chat URL copied")).toBeInTheDocument();
    expect(screen.getByText("Link copied to clipboard")).toBeInTheDocument();
    await userEvent.click(screen.getByText("d"));
    expect(screen.getByText("Thanks for your feedback")).toBeInTheDocument();
  });

  it("Menu opens with the keyboard and selects with Enter", async () => {
    const pick = vi.fn();
    wrap(<Menu label="Lang" items={[{ key: "a", label: "Alpha", onSelect: () => pick("a") }, { key: "b", label: "Beta", onSelect: () => pick("b") }]} />);
    const button = screen.getByRole("button", { name: "Lang" });
    button.focus();
    await userEvent.keyboard("{ArrowDown}");
    expect(screen.getByRole("menu")).toBeInTheDocument();
    await userEvent.keyboard("{ArrowDown}{Enter}");
    expect(pick).toHaveBeenCalledWith("b");
    expect(screen.queryByRole("menu")).toBeNull();
  });

  it("Tabs switch with arrow keys", async () => {
    function T() {
      const [v, setV] = React.useState("one");
      return <Tabs label="Sections" value={v} onChange={setV} items={[{ key: "one", label: "One", panel: "First" }, { key: "two", label: "Two", panel: "Second" }]} />;
    }
    wrap(<T />);
    screen.getByRole("tab", { name: "One" }).focus();
    await userEvent.keyboard("{ArrowRight}");
    expect(screen.getByRole("tab", { name: "Two" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tabpanel")).toHaveTextContent("Second");
  });

  it("Dialog has a labelled close button", async () => {
    const onClose = vi.fn();
    wrap(<Dialog open onClose={onClose} title="Settings">Body</Dialog>);
    await userEvent.click(screen.getByRole("button", { name: "Close", hidden: true }));
    expect(onClose).toHaveBeenCalled();
  });

  it("EmptyState renders its title", () => {
    wrap(<EmptyState title="Nothing here" />);
    expect(screen.getByRole("heading", { name: "Nothing here" })).toBeInTheDocument();
  });
});

import * as React from "react";
