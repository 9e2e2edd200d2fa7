import { type Command, InvalidArgumentError } from "commander";

// The one helper every `isopter` command is built with (Medplum's habit): the same shared options everywhere, so
// `--server`, `--profile` and `--json` mean the same thing in each command and appear in each `--help`.

export interface SharedOptions {
  readonly server?: string;
  readonly profile?: string;
  readonly json: boolean;
}

export function defineCommand(parent: Command, nameAndArgs: string, summary: string, options: { isDefault?: boolean } = {}): Command {
  return parent
    .command(nameAndArgs, options)
    .description(summary)
    .option("--server <url>", "server URL, e.g. http://127.0.0.1:4170 (default: the profile's; env ISOPTER_SERVER)")
    .option("--profile <name>", "profile to use (default: the current one; env ISOPTER_PROFILE)")
    .option("--json", "machine-readable JSON output (data or summary) instead of text", false);
}

/** The shared options of the command an action runs in. */
export const sharedOptions = (command: Command): SharedOptions => {
  const o = command.opts<{ server?: string; profile?: string; json?: boolean }>();
  return {
    ...(o.server !== undefined ? { server: o.server } : {}),
    ...(o.profile !== undefined ? { profile: o.profile } : {}),
    json: o.json === true,
  };
};

// Option parsers: commander reports their InvalidArgumentError as "error: option '--x <v>' argument 'v' is invalid. <why>"
// and the CLI exits 2.

export function isoDateOption(value: string): string {
  if (
    !/^\d{4}-\d{2}-\d{2}$/.test(value) ||
    Number.isNaN(Date.parse(`${value}T00:00:00Z`)) ||
    new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) !== value
  )
    throw new InvalidArgumentError("Expected a date as YYYY-MM-DD.");
  return value;
}

export function positiveIntOption(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError("Expected a whole number above 0.");
  return n;
}

export function nonNegativeNumberOption(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError("Expected a number of 0 or more.");
  return n;
}

/** For repeatable options: --patient A --patient B. */
export const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];
