// The gallery reads listed bots through the gallery_bots() RPC (supabase-js); when the RPC is
// missing or the request fails it shows a calm error state instead of crashing.
import { describe, expect, it, vi, beforeEach } from "vitest";
import { render, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { IntlProvider } from "react-intl";
import { createMemoryRouter, RouterProvider } from "react-router";
import en from "../src/i18n/messages/en.json";

const result: { data: unknown; error: unknown } = { data: [], error: null };
const calls: string[] = [];

vi.mock("../src/lib/supabase", () => {
  const builder = {
    select: (cols: string) => (calls.push(`select ${cols}`), builder),
    eq: (col: string, v: unknown) => (calls.push(`eq ${col} ${String(v)}`), builder),
    order: () => Promise.resolve(result),
  };
  return { getSupabase: () => ({ rpc: (fn: string) => (calls.push(`rpc ${fn}`), builder) }) };
});

import GalleryPage from "../src/routes/marketing/GalleryPage";

function renderGallery() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: "/gallery", Component: GalleryPage }], { initialEntries: ["/gallery"] });
  render(
    <IntlProvider locale="en" messages={en}>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </IntlProvider>,
  );
}

beforeEach(() => {
  calls.length = 0;
});

describe("gallery", () => {
  it("queries listed bots only and shows them", async () => {
    result.data = [{ id: "6f1c1a4e-9a56-4e55-8a39-0d3c3c1d9a11", name: "Helpdesk", description: "Answers support questions", avatar_url: null, language: "en" }];
    result.error = null;
    renderGallery();
    expect(await screen.findByText("Helpdesk")).toBeInTheDocument();
    expect(calls).toEqual(["rpc gallery_bots", "select id, name, description, avatar_url, language"]);
    expect(screen.getByRole("link", { name: /Helpdesk/ })).toHaveAttribute("href", "/gallery/6f1c1a4e-9a56-4e55-8a39-0d3c3c1d9a11");
  });

  it("shows the empty state", async () => {
    result.data = [];
    result.error = null;
    renderGallery();
    expect(await screen.findByText("No public bots yet.")).toBeInTheDocument();
  });

  it("shows an error state when the RPC is missing", async () => {
    result.data = null;
    result.error = { code: "PGRST202", message: "Could not find the function public.gallery_bots without parameters in the schema cache" };
    renderGallery();
    expect(await screen.findByText("The gallery is not available right now.")).toBeInTheDocument();
  });
});
