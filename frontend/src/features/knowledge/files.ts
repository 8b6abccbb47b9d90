// Checks and Storage paths for uploaded source files. The bucket and the ingest function
// enforce the same limits; checking here gives a clear message before any upload.
export const MAX_FILE_BYTES = 20 * 1024 * 1024;

const KINDS: Record<string, { kind: FileKind; mime: string }> = {
  csv: { kind: "csv", mime: "text/csv" },
  pdf: { kind: "pdf", mime: "application/pdf" },
  docx: { kind: "docx", mime: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" },
  md: { kind: "markdown", mime: "text/markdown" },
  markdown: { kind: "markdown", mime: "text/markdown" },
  txt: { kind: "text", mime: "text/plain" },
  text: { kind: "text", mime: "text/plain" },
};

export type FileKind = "csv" | "pdf" | "docx" | "markdown" | "text";
export const ACCEPT = ".csv,.pdf,.docx,.md,.markdown,.txt";

export function fileKind(name: string): { kind: FileKind; mime: string } | null {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? "";
  return KINDS[ext] ?? null;
}

export type FileProblem = "sources.file.error.type" | "sources.file.error.size" | "sources.file.error.empty";

export function checkFile(file: Pick<File, "name" | "size">): FileProblem | null {
  if (!fileKind(file.name)) return "sources.file.error.type";
  if (file.size === 0) return "sources.file.error.empty";
  if (file.size > MAX_FILE_BYTES) return "sources.file.error.size";
  return null;
}

/** `<bot_id>/<uuid>-<name>` with a name Storage accepts everywhere. */
export function storagePath(botId: string, name: string, uuid: string = crypto.randomUUID()): string {
  const safe = name.normalize("NFKD").replace(/[^\w.-]+/g, "_").replace(/_+/g, "_").replace(/^[._]+/, "").slice(-120) || "file";
  return `${botId}/${uuid}-${safe}`;
}
