// Writes of test cases as the signed-in user (RLS: the team's owners and admins): save one (new or
// edited; history is the conversation before the question, empty turns left out),
// bulk edit (tags, accept suggestions, delete), and "add as test case" from a conversation turn.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { TablesInsert } from "../../lib/database";
import type { HistoryTurn } from "./types";
import { refused, unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { testKeys } from "./keys";

export type TestCaseInput = Pick<
  TablesInsert<"test_cases">,
  "question" | "expected_answer" | "required_phrases" | "forbidden_phrases" | "expected_sources" | "tags" | "language"
> & { history?: HistoryTurn[] };

export async function saveTestCase(botId: string, input: TestCaseInput, id?: string): Promise<void> {
  const db = await loadSupabase();
  const { history, ...rest } = input;
  const row = history === undefined
    ? rest
    : { ...rest, history: history.map((t) => ({ role: t.role, content: t.content.trim() })).filter((t) => t.content !== "") };
  if (id) {
    const rows = unwrap(await db.from("test_cases").update(row).eq("id", id).select("id"));
    if (!rows?.length) throw refused("The test case could not be changed.");
  } else unwrap(await db.from("test_cases").insert({ ...row, bot_id: botId }));
}

export type BulkAction = { kind: "addTag" | "removeTag"; tag: string } | { kind: "accept" } | { kind: "delete" };

export async function bulkEditTestCases(cases: { id: string; tags: string[] }[], action: BulkAction): Promise<void> {
  const db = await loadSupabase();
  const ids = cases.map((c) => c.id);
  if (action.kind === "delete") unwrap(await db.from("test_cases").delete().in("id", ids));
  else if (action.kind === "accept") unwrap(await db.from("test_cases").update({ status: "active" }).in("id", ids));
  else {
    for (const c of cases) {
      const tags = action.kind === "addTag" ? [...new Set([...c.tags, action.tag])] : c.tags.filter((t) => t !== action.tag);
      unwrap(await db.from("test_cases").update({ tags }).eq("id", c.id));
    }
  }
}

export async function addTestCaseFromMessage(messageId: string, expectedAnswer?: string): Promise<string> {
  const db = await loadSupabase();
  return unwrap(await db.rpc("add_test_case_from_message", { message_id: messageId, expected_answer: expectedAnswer ?? undefined }));
}

export function useSaveTestCaseMutation(botId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ input, id }: { input: TestCaseInput; id?: string }) => saveTestCase(botId, input, id),
    onSettled: () => qc.invalidateQueries({ queryKey: testKeys.cases(botId) }),
  });
}

export function useBulkEditTestCasesMutation(botId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ cases, action }: { cases: { id: string; tags: string[] }[]; action: BulkAction }) => bulkEditTestCases(cases, action),
    onSettled: () => qc.invalidateQueries({ queryKey: testKeys.cases(botId) }),
  });
}

export function useAddTestCaseFromMessageMutation(botId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ messageId, expectedAnswer }: { messageId: string; expectedAnswer?: string }) => addTestCaseFromMessage(messageId, expectedAnswer),
    onSettled: () => qc.invalidateQueries({ queryKey: testKeys.cases(botId) }),
  });
}
