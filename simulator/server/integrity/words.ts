import type { Storage } from "../db/open.ts";
import { damagedTables, type IntegrityReport } from "./pass.ts";

// The pass's findings in words: one line for a refused start (start.ts prints it as `Isopter: ...`), and the table
// `isopter check` prints.

/** How to restore from a backup, as the exact command for this storage. */
export const restoreAdvice = (storage: Storage) =>
  storage.kind === "postgres"
    ? "restore the last backup into a new, empty database: isopter restore <backup file> --database-url <new database's URL>, then start with that DATABASE_URL"
    : "restore the last backup into a new data directory: isopter restore <backup file> --data-dir <new DATA_DIR>, then start with that DATA_DIR";

const place = (storage: Storage) => (storage.kind === "postgres" ? "the database" : `DATA_DIR ${storage.dataDir ?? "(in memory)"}`);

/** One line: the first damaged table and what is wrong, how many more, and how to restore. */
export const refusalLine = (report: IntegrityReport, storage: Storage): string => {
  const bad = damagedTables(report);
  const first = bad[0]!;
  const more = bad.reduce((n, t) => n + t.problems.length, 0) - 1;
  return `${place(storage)} is damaged: table ${first.table} ${first.problems[0]}${more > 0 ? ` (and ${more} more; isopter check lists them)` : ""}; ${restoreAdvice(storage)}`;
};

/** A pass that could not run at all (the catalogue unreadable): the same advice. */
export const failedPassLine = (error: unknown, storage: Storage) =>
  `${place(storage)} is damaged: the integrity pass could not run (${(error instanceof Error ? error.message : String(error)).split("\n")[0]}); ${restoreAdvice(storage)}`;

/** Damage a request met after the start's pass (its statement's error). */
export const damagedLine = (error: unknown, storage: Storage) =>
  `${place(storage)} is damaged: a request met ${(error instanceof Error ? error.message : String(error)).split("\n")[0]}; stop the server, run isopter check, and ${restoreAdvice(storage)}`;

const pad = (s: string, n: number) => (s.length >= n ? s : s + " ".repeat(n - s.length));

/** `isopter check`'s report: a line per table, then the verdict. */
export const reportLines = (report: IntegrityReport, storage: Storage): string[] => {
  const width = Math.max(5, ...report.tables.map((t) => t.table.length));
  const lines = [
    `Integrity pass on ${place(storage)} (${report.database}): ${report.tables.length} tables in ${report.ms} ms; counts compared with ${report.comparedWith}`,
    `${pad("table", width)}  ${pad("rows", 8)}  ${pad("recorded", 8)}  ${pad("pages", 6)}  indexes  found`,
  ];
  for (const t of report.tables)
    lines.push(
      `${pad(t.table, width)}  ${pad(t.rows === undefined ? "-" : String(t.rows), 8)}  ${pad(t.recorded === undefined ? "-" : String(t.recorded), 8)}  ${pad(String(t.pages), 6)}  ${pad(String(t.indexes), 7)}  ${t.problems.length ? t.problems.join("; ") : "ok"}${t.notes.length ? ` (${t.notes.join("; ")})` : ""}`,
    );
  for (const note of report.notes) lines.push(`note: ${note}`);
  const bad = damagedTables(report);
  lines.push(
    bad.length
      ? `DAMAGED: ${bad.map((t) => t.table).join(", ")}; ${restoreAdvice(storage)}`
      : `OK: every table read through${report.amcheck ? ", its indexes checked by amcheck" : ""}, no damage found`,
  );
  return lines;
};
