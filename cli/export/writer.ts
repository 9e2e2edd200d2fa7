import type { ExportRecord } from "./record.ts";

/** One export format: records go in one at a time; `end` finishes the file(s). */
export interface ExportWriter {
  write(record: ExportRecord): Promise<void>;
  end(): Promise<void>;
}
