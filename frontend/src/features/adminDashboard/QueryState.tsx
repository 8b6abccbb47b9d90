// Loading, error and empty states of one admin read, the same on every section.
import type { ReactNode } from "react";
import { FormattedMessage } from "react-intl";
import type { UseQueryResult } from "@tanstack/react-query";
import { ErrorNote } from "../../components/ErrorNote";
import { EmptyState, Loading } from "../../components/ui";

export function QueryState<T>({ query, isEmpty, children }: { query: UseQueryResult<T>; isEmpty?: (data: T) => boolean; children: (data: T) => ReactNode }) {
  if (query.isPending) return <Loading />;
  if (query.isError) return <ErrorNote error={query.error} />;
  if (isEmpty?.(query.data)) return <EmptyState title={<FormattedMessage id="adminDashboard.empty.title" />} description={<FormattedMessage id="adminDashboard.empty.text" />} />;
  return <>{children(query.data)}</>;
}
