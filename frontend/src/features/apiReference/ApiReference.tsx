// The HTTP API's reference, rendered from the OpenAPI document the `api` function serves:
// the base URL, each endpoint with its request body and responses, and the schemas.
// The document's own texts stay in English (they are the API's); the frame is translated.
import { FormattedMessage, useIntl } from "react-intl";
import { Loading } from "../../components/ui";
import { openApiUrl, useOpenApiQuery, type OpenApiDocument, type SchemaObject } from "../../data/apiReference/openapi-query";
import "./apiReference.css";

/** The document's texts mark code with backticks (CommonMark, as OpenAPI allows); show it as code. */
function Text({ children }: { children: string | undefined }) {
  return <>{(children ?? "").split(/`([^`]+)`/).map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part))}</>;
}

/** "#/components/schemas/Source" → "Source". */
const refName = (ref: string) => ref.split("/").pop() ?? ref;

function typeOf(s: SchemaObject): string {
  if (s.$ref) return refName(s.$ref);
  if (s.items) return `${typeOf(s.items)}[]`;
  const t = Array.isArray(s.type) ? s.type.join(" | ") : (s.type ?? "any");
  return s.format ? `${t} (${s.format})` : t;
}

function resolve(doc: OpenApiDocument, s: SchemaObject | undefined): { name: string | null; schema: SchemaObject | undefined } {
  if (s?.$ref) return { name: refName(s.$ref), schema: doc.components?.schemas?.[refName(s.$ref)] };
  return { name: null, schema: s };
}

function Fields({ schema }: { schema: SchemaObject }) {
  const entries = Object.entries(schema.properties ?? {});
  if (!entries.length) return <p><code>{typeOf(schema)}</code></p>;
  return (
    <table className="api-ref__fields">
      <thead>
        <tr>
          <th scope="col"><FormattedMessage id="channels.reference.field" /></th>
          <th scope="col"><FormattedMessage id="channels.reference.type" /></th>
          <th scope="col"><FormattedMessage id="channels.reference.description" /></th>
        </tr>
      </thead>
      <tbody>
        {entries.map(([name, prop]) => (
          <tr key={name}>
            <td>
              <code>{name}</code>{" "}
              <span className="api-ref__muted">
                <FormattedMessage id={schema.required?.includes(name) ? "channels.reference.required" : "channels.reference.optional"} />
              </span>
            </td>
            <td><code>{typeOf(prop)}</code></td>
            <td><Text>{prop.description}</Text></td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ApiReference() {
  const intl = useIntl();
  const doc = useOpenApiQuery();
  return (
    <section className="api-ref" aria-labelledby="api-ref-title" data-testid="api-reference">
      <h2 id="api-ref-title"><FormattedMessage id="channels.reference.title" /></h2>
      {doc.isPending ? (
        <Loading />
      ) : doc.isError ? (
        <p role="alert"><FormattedMessage id="channels.reference.error" /></p>
      ) : (
        <>
          <p><Text>{doc.data.info.description}</Text></p>
          <p>
            <FormattedMessage id="channels.reference.server" />{" "}
            <code data-testid="api-reference-server">{doc.data.servers?.[0]?.url ?? ""}</code>
          </p>
          {Object.entries(doc.data.paths).flatMap(([path, methods]) =>
            Object.entries(methods).map(([method, op]) => {
              const body = resolve(doc.data, op.requestBody?.content?.["application/json"]?.schema);
              return (
                <article key={`${method} ${path}`} className="api-ref__op" aria-label={`${method.toUpperCase()} ${path}`}>
                  <h3><code className="api-ref__method">{method.toUpperCase()}</code> <code>{path}</code></h3>
                  {op.summary && <p><Text>{op.summary}</Text></p>}
                  {body.schema && (
                    <>
                      <h4><FormattedMessage id="channels.reference.body" />{body.name && <> (<code>{body.name}</code>)</>}</h4>
                      <Fields schema={body.schema} />
                    </>
                  )}
                  <h4><FormattedMessage id="channels.reference.responses" /></h4>
                  <dl className="api-ref__responses">
                    {Object.entries(op.responses ?? {}).map(([status, r]) => (
                      <div key={status}>
                        <dt><code>{status}</code></dt>
                        <dd><Text>{r.description}</Text></dd>
                      </div>
                    ))}
                  </dl>
                </article>
              );
            }),
          )}
          <h3><FormattedMessage id="channels.reference.schemas" /></h3>
          {Object.entries(doc.data.components?.schemas ?? {}).map(([name, schema]) => (
            <article key={name} className="api-ref__schema" aria-label={name}>
              <h4><code>{name}</code></h4>
              <Fields schema={schema} />
            </article>
          ))}
          <p>
            <a href={openApiUrl()} download="openapi.json">
              {intl.formatMessage({ id: "channels.reference.download" }, { version: doc.data.openapi })}
            </a>
          </p>
        </>
      )}
    </section>
  );
}
