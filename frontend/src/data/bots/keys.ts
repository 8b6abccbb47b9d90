// Query keys for bots, general to specific (TkDodo's key factories).
export const botKeys = {
  all: ["bots"] as const,
  gallery: () => [...botKeys.all, "gallery"] as const,
  galleryDetail: (id: string) => [...botKeys.gallery(), id] as const,
};
