// The server's log: one line per event on stderr, `isopter <event> key=value ...` by default, or one JSON object per
// line with LOG_FORMAT=json (for log collectors). Errors are summarised (name, code, message), never a stack trace:
// an aborted upload or a database gone away is an event, not a crash. LOG_STACKS=1 adds the stack for debugging.

export type LogFields = Readonly<Record<string, unknown>>;

const json = () => process.env.LOG_FORMAT === "json";

/** An error as one line: code and message (the first line of it). */
export const describeError = (e: unknown): string => {
  if (!(e instanceof Error)) return String(e).split("\n")[0]!;
  const code = (e as { code?: unknown }).code;
  const text = `${e.name !== "Error" ? `${e.name}: ` : ""}${e.message.split("\n")[0]}`;
  return typeof code === "string" && !e.message.includes(code) ? `${code} ${text}` : text;
};

const plain = (v: unknown) => {
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return /[\s"=]/.test(s) ? JSON.stringify(s) : s;
};

export const logEvent = (level: "info" | "warn" | "error", event: string, fields: LogFields = {}) => {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) out[k] = v instanceof Error || k === "error" ? describeError(v) : v;
  if (process.env.LOG_STACKS === "1" && fields.error instanceof Error) out.stack = fields.error.stack;
  const line = json()
    ? JSON.stringify({ time: new Date().toISOString(), level, event, ...out })
    : `isopter ${level} ${event}${Object.entries(out)
        .map(([k, v]) => ` ${k}=${plain(v)}`)
        .join("")}`;
  process.stderr.write(`${line}\n`);
};

export const log = {
  info: (event: string, fields?: LogFields) => logEvent("info", event, fields),
  warn: (event: string, fields?: LogFields) => logEvent("warn", event, fields),
  error: (event: string, fields?: LogFields) => logEvent("error", event, fields),
};
