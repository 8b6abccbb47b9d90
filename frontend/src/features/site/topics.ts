// The channel and data-source marketing pages: URL path and message-id key of each.
export interface Topic {
  key: string;
  path: string;
  icon: string;
}

export const CHANNELS: readonly Topic[] = [
  { key: "web", path: "web", icon: "💬" },
  { key: "api", path: "api", icon: "⚙️" },
  { key: "slack", path: "slack", icon: "#" },
  { key: "discord", path: "discord", icon: "🎮" },
  { key: "whatsapp", path: "whatsapp", icon: "📱" },
  { key: "telegram", path: "telegram", icon: "✈️" },
];

export const DATA_SOURCES: readonly Topic[] = [
  { key: "web", path: "web", icon: "🌐" },
  { key: "file", path: "file", icon: "📁" },
  { key: "csv", path: "file/csv", icon: "📊" },
  { key: "pdf", path: "file/pdf", icon: "📄" },
  { key: "word", path: "file/word", icon: "📝" },
  { key: "markdown", path: "file/markdown", icon: "Ⓜ️" },
  { key: "notion", path: "notion", icon: "🗒️" },
  { key: "youtube", path: "youtube", icon: "▶️" },
];

export const TOPIC_KINDS = { channels: { base: "/channels", topics: CHANNELS }, dataSources: { base: "/data-sources", topics: DATA_SOURCES } } as const;
export type TopicKind = keyof typeof TOPIC_KINDS;

export const LEGAL_DOCUMENTS = ["dpa", "gdpr", "terms", "privacy", "sub-processors"] as const;
