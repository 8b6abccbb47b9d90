// The bot's leads: searchable, exported as CSV.
import { useState } from "react";
import { FormattedDate, FormattedMessage, useIntl } from "react-intl";
import { ErrorNote } from "../../components/ErrorNote";
import { Button, Input } from "../../components/ui";
import { csvCell } from "../../data/admin/csv";
import { type Lead, useLeadsQuery } from "../../data/powerUps/leads-query";

const COLUMNS = ["name", "email", "phone", "company", "message"] as const;

function field(lead: Lead, key: string): string {
  const f = lead.fields as Record<string, unknown> | null;
  return typeof f?.[key] === "string" ? (f[key] as string) : "";
}

/** RFC 4180 CSV; a cell a spreadsheet would run as a formula (= + - @, a tab or a carriage return first) is prefixed with '. */
export function leadsCsv(leads: Lead[]): string {
  return [["created_at", ...COLUMNS].join(","), ...leads.map((l) => [l.created_at, ...COLUMNS.map((c) => field(l, c))].map(csvCell).join(","))].join("\r\n");
}

export function LeadsList({ botId }: { botId: string }) {
  const intl = useIntl();
  const leads = useLeadsQuery(botId);
  const [q, setQ] = useState("");
  const shown = (leads.data ?? []).filter((l) => !q || JSON.stringify(l.fields).toLowerCase().includes(q.toLowerCase()));
  const download = () => {
    const url = URL.createObjectURL(new Blob([leadsCsv(shown)], { type: "text/csv;charset=utf-8" }));
    const a = Object.assign(document.createElement("a"), { href: url, download: "leads.csv" });
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <section aria-labelledby="pu-leads">
      <div className="pu-head">
        <h2 id="pu-leads"><FormattedMessage id="powerUps.leads.title" /></h2>
        <Button size="sm" theme="secondary" onClick={download} disabled={!shown.length}><FormattedMessage id="powerUps.leads.export" /></Button>
      </div>
      <Input label={intl.formatMessage({ id: "powerUps.leads.search" })} type="search" value={q} onChange={(e) => setQ(e.target.value)} />
      {leads.isError ? (
        <ErrorNote error={leads.error} />
      ) : !shown.length ? (
        <p className="pu-muted"><FormattedMessage id="powerUps.leads.empty" /></p>
      ) : (
        <div className="table-scroll">
          <table className="pu-table">
            <thead>
              <tr>
                <th scope="col"><FormattedMessage id="powerUps.leads.date" /></th>
                {COLUMNS.map((c) => <th scope="col" key={c}><FormattedMessage id={`powerUps.field.${c}`} /></th>)}
              </tr>
            </thead>
            <tbody>
              {shown.map((l) => (
                <tr key={l.id} data-lead={l.id}>
                  <td><FormattedDate value={l.created_at} dateStyle="medium" timeStyle="short" /></td>
                  {COLUMNS.map((c) => <td key={c}>{field(l, c)}</td>)}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
