// supabase-js errors as Errors with a code, so screens can tell them apart.
export function dbError(error: { message: string; code?: string }): Error & { code: string } {
  return Object.assign(new Error(error.message), { code: error.code ?? "db_error" });
}

export async function client() {
  const { getSupabase } = await import("../../lib/supabase");
  return getSupabase();
}
