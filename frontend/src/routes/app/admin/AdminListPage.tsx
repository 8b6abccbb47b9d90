// /app/admin/users, /teams, /team-members, /bots, /chats: the route's `meta.list` names the list.
import { useRouteDef } from "../../../app/handle";
import type { AdminListName } from "../../../data/admin/lists";
import { AdminListScreen } from "../../../features/admin/AdminListScreen";
import { LIST_CONFIGS } from "../../../features/admin/listConfigs";

export default function AdminListPage() {
  const name = (useRouteDef()?.meta?.list ?? "users") as AdminListName;
  const config = LIST_CONFIGS[name];
  return <AdminListScreen key={name} config={config as never} />;
}
