// Runs `isopter` in-process with captured streams (fast), or as a real process through cli/bin.mjs (the launcher).
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PassThrough } from "node:stream";
import type { CliIo } from "../../cli/io.ts";
import { runCli } from "../../cli/run.ts";

export const projectRoot = resolve(import.meta.dirname, "../..");

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export const tempHome = () => mkdtempSync(join(tmpdir(), "isopter-cli-"));

export async function isopter(
  args: readonly string[],
  options: { env?: Record<string, string | undefined>; stdin?: string; cwd?: string } = {},
): Promise<Run> {
  const stdout = new PassThrough(),
    stderr = new PassThrough(),
    stdin = new PassThrough();
  let out = "",
    err = "";
  stdout.on("data", (c) => (out += c));
  stderr.on("data", (c) => (err += c));
  stdin.end(options.stdin ?? "");
  const io: CliIo = { stdout, stderr, stdin, env: { ISOPTER_HOME: tempHome(), ...options.env }, cwd: options.cwd ?? projectRoot };
  const code = await runCli(args, io);
  await new Promise((r) => setImmediate(r));
  return { code, stdout: out, stderr: err };
}

/** The real thing: node cli/bin.mjs ARGS (the bundle, built when a source changed). */
export function isopterProcess(args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  return spawnRun(process.execPath, [join(projectRoot, "cli/bin.mjs"), ...args], env);
}

export function spawnRun(command: string, args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, [...args], {
      cwd: projectRoot,
      env: { ...process.env, ISOPTER_HOME: tempHome(), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "",
      err = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (err += c));
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({ code: code ?? -1, stdout: out, stderr: err }));
  });
}
