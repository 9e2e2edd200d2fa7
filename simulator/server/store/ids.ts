import { randomUUID } from "node:crypto";

/** New entity ids: opaque UUID strings (core/model/ids.ts). */
export const newId = (): string => randomUUID();
