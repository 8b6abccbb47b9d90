// Uploading a data source's files: the progress bar shows its percentage, says when a lost
// connection is being retried, and the upload can be cancelled (nothing is created). The
// resumable threshold comes from the runtime configuration. (The uploads themselves, through
// tus-js-client against the real stack, are in e2e/upload.spec.ts.)
import { describe, expect, it, vi } from "vitest";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { IntlProvider } from "react-intl";
import shared from "../src/i18n/messages/en.json";
import sources from "../src/i18n/messages/sources/en.json";
import errors from "../src/i18n/messages/errors/en.json";
import { NewSourceForm } from "../src/features/knowledge/NewSourceForm";
import type { UploadOptions } from "../src/data/dataSources/source-file-upload";
import { RESUMABLE_UPLOAD_THRESHOLD_BYTES, resolveConfig } from "../src/lib/config";
import { ToastProvider } from "../src/components/ui";

const BOT = "6f1c1a4e-9a56-4e55-8a39-0d3c3c1d9a11";
const messages = { ...shared, ...sources, ...errors } as Record<string, string>;

function renderForm(upload: (path: string, file: Blob, mime: string, onProgress: (f: number) => void, o?: UploadOptions) => Promise<void>, onCreated = vi.fn()) {
  render(
    <IntlProvider locale="en" messages={messages}>
      <QueryClientProvider client={new QueryClient()}>
        <ToastProvider>
          <NewSourceForm botId={BOT} initialType="file" onCreated={onCreated} upload={upload} />
        </ToastProvider>
      </QueryClientProvider>
    </IntlProvider>,
  );
  return onCreated;
}

describe("data source file upload", () => {
  it("shows the percentage and the retry, and cancels: nothing is created", async () => {
    let options: UploadOptions | undefined;
    let progress: ((f: number) => void) | undefined;
    const upload = vi.fn(
      (_path: string, _file: Blob, _mime: string, onProgress: (f: number) => void, o?: UploadOptions) =>
        new Promise<void>((_resolve, reject) => {
          options = o;
          progress = onProgress;
          o?.signal?.addEventListener("abort", () => reject(new Error("aborted")));
        }),
    );
    const onCreated = renderForm(upload);
    await userEvent.upload(screen.getByLabelText("Files to upload"), new File(["# Returns\n"], "returns.md", { type: "text/markdown" }));
    await userEvent.click(screen.getByRole("button", { name: "Add and start syncing" }));
    await waitFor(() => expect(upload).toHaveBeenCalled());
    progress!(0.42);
    expect(await screen.findByText("42%")).toBeInTheDocument();
    expect(screen.getByRole("progressbar", { name: "Uploading returns.md" })).toHaveAttribute("aria-valuenow", "42");
    options!.onRetry!();
    expect(await screen.findByText("Connection lost, trying again…")).toBeInTheDocument();
    progress!(0.5);
    await waitFor(() => expect(screen.queryByText("Connection lost, trying again…")).toBeNull());

    await userEvent.click(screen.getByRole("button", { name: "Cancel upload" }));
    expect(options!.signal!.aborted).toBe(true);
    expect(await screen.findByText("The upload was cancelled. Nothing was added.")).toBeInTheDocument();
    expect(screen.queryByRole("progressbar")).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
    expect(onCreated).not.toHaveBeenCalled();
  });

  it("takes the resumable threshold from the runtime configuration, 6 MB by default", () => {
    expect(RESUMABLE_UPLOAD_THRESHOLD_BYTES).toBe(6 * 1024 * 1024);
    expect(resolveConfig({}, {}, "").resumableUploadThreshold).toBe(RESUMABLE_UPLOAD_THRESHOLD_BYTES);
    expect(resolveConfig({ resumableUploadThreshold: 65536 }, {}, "").resumableUploadThreshold).toBe(65536);
    expect(resolveConfig({}, { VITE_RESUMABLE_UPLOAD_THRESHOLD: "1024" }, "").resumableUploadThreshold).toBe(1024);
    expect(resolveConfig({ resumableUploadThreshold: -1 }, {}, "").resumableUploadThreshold).toBe(RESUMABLE_UPLOAD_THRESHOLD_BYTES);
  });
});
