// POST /functions/v1/notion-connect/{start,exchange,search}: connect a Notion workspace and
// pick its pages (see supabase/functions/notion-connect/README.md for the flow).

/** POST /notion-connect/start */
export interface NotionStartRequest {
  /** `<app origin>/app/auth/providers/notion/callback` (or PARLEY_NOTION_REDIRECT_URI). */
  redirect_uri: string;
  /** A path on this site to come back to after the callback. */
  return_path: string;
}
export interface NotionStartAnswer {
  /** Notion's consent page. */
  url: string;
}

/** POST /notion-connect/exchange: what Notion handed to the callback page (a code, or an error). */
export interface NotionExchangeRequest {
  state: string;
  code?: string;
  error?: string;
  error_description?: string;
}
export interface NotionExchangeAnswer {
  connection_id: string;
  workspace_name: string | null;
  return_path: string;
}

/** POST /notion-connect/search */
export interface NotionSearchRequest {
  connection_id: string;
  query?: string;
  /** `next_cursor` of the previous page. */
  cursor?: string;
}

/** One page or database the owner may pick in the Notion picker. */
export interface NotionPickerItem {
  id: string;
  type: "page" | "database";
  title: string;
  url: string | null;
  /** An emoji, when the page has one. */
  icon: string | null;
  last_edited_time: string | null;
}

export interface NotionSearchAnswer {
  workspace_name: string | null;
  results: NotionPickerItem[];
  next_cursor: string | null;
}
