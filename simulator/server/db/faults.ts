// What a database error means to a caller, on PGlite and PostgreSQL alike (both carry PostgreSQL's SQLSTATE in `code`).

const sqlState = (e: unknown): string | undefined => {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
};

/** A unique constraint said no (23505): a concurrent writer got there first. */
export const isUniqueViolation = (e: unknown, constraint?: string): boolean =>
  sqlState(e) === "23505" && (constraint === undefined || (e as { constraint?: string }).constraint === constraint);

/** The database read a damaged page or index (XX001 data_corrupted: a checksum failure, a block past a cut file's
 * end; XX002 index_corrupted): no retry helps, integrity/ (isopter check, a restore) does. */
export const isDataDamaged = (e: unknown): boolean => sqlState(e) === "XX001" || sqlState(e) === "XX002";

/** Network codes of a connection that cannot be made or broke. */
const networkCodes = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "ENOTFOUND"]);

/** The database is away (down, restarting, unreachable, connection lost): worth answering 503 and trying again. */
export const isDatabaseUnavailable = (e: unknown): boolean => {
  if (e instanceof DatabaseUnavailable) return true;
  const code = sqlState(e);
  // 08xxx connection exceptions; 57P01-57P03 admin shutdown, crash shutdown, cannot connect now; 53300 too many connections
  if (code && (/^08/.test(code) || /^57P0[1-3]$/.test(code) || code === "53300" || networkCodes.has(code))) return true;
  const message = e instanceof Error ? e.message : "";
  return /Connection terminated|connection timeout|Client has encountered a connection error|timeout exceeded when trying to connect/i.test(
    message,
  );
};

/** Raised by the pool while it knows the database is away (so callers fail fast instead of waiting). */
export class DatabaseUnavailable extends Error {
  constructor(cause: unknown) {
    super("the database is not reachable", { cause });
  }
}
