/// <reference types="vite/client" />

// Lingui's vite plugin compiles .po catalogs on import (design/stack.md gotcha).
declare module "*.po" {
  import type { Messages } from "@lingui/core";
  export const messages: Messages;
}
