#!/usr/bin/env node
// Entry point: runs the TypeScript sources through tsx's loader.
import { register } from "tsx/esm/api";
register();
await import("../src/cli.ts");
