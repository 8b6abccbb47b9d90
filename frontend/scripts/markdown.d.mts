export function parseMarkdownFile(source: string, slug: string): { attributes: Record<string, unknown> & { slug: string }; html: string };
