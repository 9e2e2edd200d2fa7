// Browser storages only: file-storage.ts imports node:fs and is imported directly by Node callers.
export * from "./memory-storage.ts";
export * from "./browser-storage.ts";
