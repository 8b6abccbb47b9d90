import { FormattedDate, FormattedMessage, FormattedNumber } from "react-intl";
import type { Invoice } from "../../data/billing/types";
import { idPart } from "./PlanCards";

export function Invoices({ invoices }: { invoices: Invoice[] }) {
  if (invoices.length === 0) return <p className="billing-muted"><FormattedMessage id="billing.invoices.empty" /></p>;
  return (
    <div className="table-scroll">
      <table className="billing-invoices">
        <thead>
          <tr>
            <th><FormattedMessage id="billing.invoices.date" /></th>
            <th><FormattedMessage id="billing.invoices.number" /></th>
            <th><FormattedMessage id="billing.invoices.amount" /></th>
            <th><FormattedMessage id="billing.invoices.status" /></th>
          </tr>
        </thead>
        <tbody>
          {invoices.map((i) => (
            <tr key={i.id}>
              <td><FormattedDate value={i.created_at} dateStyle="medium" /></td>
              <td>{i.hosted_invoice_url ? <a href={i.hosted_invoice_url} rel="noreferrer" target="_blank">{i.number ?? i.stripe_invoice_id}</a> : i.number ?? i.stripe_invoice_id}</td>
              <td><FormattedNumber value={(i.status === "paid" ? i.amount_paid : i.amount_due) / 100} style="currency" currency={i.currency.toUpperCase()} /></td>
              <td><FormattedMessage id={`billing.invoices.status.${idPart(i.status)}`} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
