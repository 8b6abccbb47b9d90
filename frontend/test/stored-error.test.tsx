// A worker's stored error (task run, webhook delivery) on screen: the code's message in the
// user's language, the code in the title, never the English detail.
import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import { IntlProvider } from "react-intl";
import errorsDe from "../src/i18n/messages/errors/de.json";
import errorsEn from "../src/i18n/messages/errors/en.json";
import { StoredError } from "../src/components/StoredError";
import { deliveryErrorMessage, taskRunErrorMessage } from "../src/lib/errors";

describe("StoredError", () => {
  it("shows a delivery's blocked address in German, with the code as the title", () => {
    render(
      <IntlProvider locale="de" messages={errorsDe}>
        <StoredError text="blocked_address: 10.0.0.5 resolves to 10.0.0.5 (private), which Parley does not fetch" message={deliveryErrorMessage} />
      </IntlProvider>,
    );
    const shown = screen.getByText("Diese Adresse liegt in einem privaten Netz; Parley sendet keine Webhooks dorthin.");
    expect(shown).toHaveAttribute("title", "blocked_address");
    expect(document.body).not.toHaveTextContent(/resolves to|Parley does not fetch/);
  });

  it("shows an unknown task error as the generic message, the code still in the title", () => {
    render(
      <IntlProvider locale="en" messages={errorsEn}>
        <StoredError text="brand_new_code: Something the worker said" message={taskRunErrorMessage} />
      </IntlProvider>,
    );
    expect(screen.getByText("Something went wrong. Please try again.")).toHaveAttribute("title", "brand_new_code");
    expect(document.body).not.toHaveTextContent("Something the worker said");
  });
});
