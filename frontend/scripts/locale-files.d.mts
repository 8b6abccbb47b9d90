export function isLocaleMessagesFile(id: string): boolean;
