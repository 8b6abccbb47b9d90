import { data } from "react-router";

/** 404 for a path no screen or content has: "Page not found: {path}". */
export function notFound(pathname: string): never {
  throw data({ code: "not_found", path: pathname }, { status: 404, statusText: `Page not found: ${pathname}` });
}

/** 404 for a route whose validation rule failed: "Page Not Found: {path}". */
export function invalidParams(pathname: string): never {
  throw data({ code: "invalid_params", path: pathname }, { status: 404, statusText: `Page Not Found: ${pathname}` });
}
