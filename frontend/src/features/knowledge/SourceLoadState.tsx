// What a data-source page shows before it has its source: loading, the error, or
// "not found" with a way back to the list. Null once the source is there.
import type { ReactElement } from "react";
import { FormattedMessage } from "react-intl";
import { buttonClassName, EmptyState, Loading } from "../../components/ui";
import { LocalizedLink } from "../../components/LocalizedLink";
import { ErrorText } from "./badges";
import { sourcesPath } from "./SourceParts";

export function sourceLoadState(source: { isPending: boolean; isError: boolean; error: unknown; data?: unknown }, botId: string): ReactElement | null {
  if (source.isPending) return <Loading />;
  if (source.isError)
    return (
      <div className="ks-alert" role="alert">
        <ErrorText error={source.error} />
      </div>
    );
  if (!source.data)
    return (
      <EmptyState
        title={<FormattedMessage id="sources.detail.notFound" />}
        action={
          <LocalizedLink className={buttonClassName({ size: "sm" })} to={sourcesPath(botId)}>
            <FormattedMessage id="sources.list.back" />
          </LocalizedLink>
        }
      />
    );
  return null;
}
