// Small formatting pieces shared by the admin pages.
import type { ReactNode } from "react";
import { FormattedDate, FormattedMessage } from "react-intl";
import { ErrorNote } from "../../components/ErrorNote";
import { LocalizedLink, useLocale } from "../../components/LocalizedLink";
import { Loading } from "../../components/ui";
import { usePlanChoicesQuery } from "../../data/admin/plans-query";
import { AdminFrame } from "./AdminFrame";

export function When({ value }: { value: string | null | undefined }) {
  if (!value) return <span aria-label="—">—</span>;
  return <FormattedDate value={value} dateStyle="medium" timeStyle="short" />;
}

export function YesNo({ value }: { value: boolean | null | undefined }) {
  return <FormattedMessage id={value ? "admin.common.yes" : "admin.common.no"} />;
}

/** A plan's name in the reader's language (the plans' own names), its id until they load. */
export function PlanName({ id }: { id: string }) {
  const locale = useLocale();
  const plan = usePlanChoicesQuery().data?.find((p) => p.id === id);
  const names = (plan?.name ?? {}) as Record<string, string>;
  return <>{names[locale] ?? names.en ?? id}</>;
}

/** Sign-in methods: "email" in the reader's language, the providers' own names as they are. */
export function SignInMethods({ providers }: { providers: readonly string[] }) {
  if (!providers.length) return <>—</>;
  return (
    <>
      {providers.map((p, i) => (
        <span key={p}>
          {i > 0 && ", "}
          {p === "email" ? <FormattedMessage id="admin.signIn.email" /> : p}
        </span>
      ))}
    </>
  );
}

export const adminPaths = {
  user: (id: string) => `/app/admin/dashboard/user/${id}`,
  bot: (id: string) => `/app/admin/dashboard/bot/${id}`,
  list: (list: string, query: Record<string, string> = {}) => {
    const q = new URLSearchParams(query).toString();
    return `/app/admin/${list}${q ? `?${q}` : ""}`;
  },
};

export function UserLink({ id, email }: { id: string | null; email: string | null }) {
  if (!id) return <span>—</span>;
  return <LocalizedLink to={adminPaths.user(id)}>{email ?? <FormattedMessage id="admin.users.guest" />}</LocalizedLink>;
}

/** A titled section of a detail page listing `items`, or "Nothing found." */
export function DetailList<T extends { id: string }>(props: {
  id: string;
  title: string;
  items: readonly T[];
  render: (item: T) => ReactNode;
  className?: string;
}) {
  return (
    <section aria-labelledby={props.id}>
      <h2 id={props.id}>
        <FormattedMessage id={props.title} />
      </h2>
      {props.items.length === 0 ? (
        <p>
          <FormattedMessage id="admin.table.empty" />
        </p>
      ) : (
        <ul className={props.className}>
          {props.items.map((item) => (
            <li key={item.id}>{props.render(item)}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A detail page's frame while it loads or when it failed. */
export function DetailState({ title, error }: { title: string; error?: unknown }) {
  return (
    <AdminFrame title={<FormattedMessage id={title} />}>{error ? <ErrorNote error={error} /> : <Loading />}</AdminFrame>
  );
}
