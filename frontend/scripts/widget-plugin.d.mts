import type { Plugin } from "vite";
export function buildWidget(): Promise<string>;
export function widgetLoader(): Plugin;
