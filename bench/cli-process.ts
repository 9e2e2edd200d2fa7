import { spawn } from "node:child_process";
import { join } from "node:path";

// The real `isopter` as a user starts it (cli/bin.mjs), measured by bench/process-peak.mjs: the benches of commands that
// talk to a server (export, import) run it against a server in the bench's own process.

/** `node cli/bin.mjs ARGS` with the peak reporter preloaded: what `isopter ARGS` costs a user, start-up included. */
export function isopterProcess(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; seconds: number; peakRssMb: number; cpuSeconds: number; stdout: string; stderr: string }> {
  const root = join(import.meta.dirname, "..");
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const p = spawn(process.execPath, ["--import", join(import.meta.dirname, "process-peak.mjs"), join(root, "cli", "bin.mjs"), ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe", "pipe"],
    });
    let stdout = "",
      stderr = "",
      peak = "";
    p.stdout!.on("data", (c) => (stdout += c));
    p.stderr!.on("data", (c) => (stderr += c));
    (p.stdio[3] as NodeJS.ReadableStream).on("data", (c) => (peak += c));
    p.on("error", reject);
    p.on("close", (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (!peak) return reject(new Error(`isopter ${args.join(" ")} reported no figures (exit ${code}): ${stderr}`));
      resolve({ code: code ?? -1, seconds, stdout, stderr, ...(JSON.parse(peak) as { peakRssMb: number; cpuSeconds: number }) });
    });
  });
}
