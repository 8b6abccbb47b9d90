// The channel and data-source marketing pages: URL path and message-id key of each.
export interface Topic {
  key: string;
  path: string;
  /** A short text mark shown in the card (no emoji: not every system has an emoji font). */
  icon: string;
}

export const CHANNELS: readonly Topic[] = [
  { key: "web", path: "web", icon: "</>" },
  { key: "api", path: "api", icon: "{ }" },
  { key: "slack", path: "slack", icon: "#" },
  { key: "discord", path: "discord", icon: "D" },
  { key: "whatsapp", path: "whatsapp", icon: "W" },
  { key: "telegram", path: "telegram", icon: "T" },
];

export const DATA_SOURCES: readonly Topic[] = [
  { key: "web", path: "web", icon: "www" },
  { key: "file", path: "file", icon: "F" },
  { key: "csv", path: "file/csv", icon: "CSV" },
  { key: "pdf", path: "file/pdf", icon: "PDF" },
  { key: "word", path: "file/word", icon: "DOC" },
  { key: "markdown", path: "file/markdown", icon: "MD" },
  { key: "notion", path: "notion", icon: "N" },
  { key: "youtube", path: "youtube", icon: "YT" },
];

export const TOPIC_KINDS = { channels: { base: "/channels", topics: CHANNELS }, dataSources: { base: "/data-sources", topics: DATA_SOURCES } } as const;
export type TopicKind = keyof typeof TOPIC_KINDS;

export const LEGAL_DOCUMENTS = ["dpa", "gdpr", "terms", "privacy", "sub-processors"] as const;
