// isopter-ready-watch: active readiness for Debian's (open-source) nginx, which checks its upstreams only passively
// (a refused connection, a 502/503). Every few seconds it asks each process's GET /api/ready (200 ready; 503 while
// its database is away, migrations are behind or it drains) and writes nginx's upstream file: one `server` line per
// process, `down` for the ones not ready. When the file changed it reloads nginx, which then sends no new request or
// socket there; a process marked down that is ready again is put back the same way. When none is ready every line
// stays up (nginx's passive checks then decide; marking all down would only turn 503s into 502s).
//
//   npx tsx deploy/ready-watch.ts --ports 4171,4172,4173 [--file /etc/nginx/isopter-upstream.conf]
//     [--reload "nginx -s reload"] [--every 2] [--once]
// deploy/systemd/isopter-ready-watch.service runs it; start:cluster and the cluster suite use its functions.
import { execSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** nginx's passive check beside it: one failed connection and the process is left alone for 5 s. */
export const PASSIVE = "max_fails=1 fail_timeout=5s";

/** The upstream file's lines for processes on 127.0.0.1 at `ports`, `ready[i]` saying whether the i-th is. */
export const upstreamFile = (ports: readonly number[], ready: readonly boolean[] = ports.map(() => true)): string => {
  const anyReady = ready.some(Boolean);
  const lines = ports.map((port, i) => `server 127.0.0.1:${port} ${PASSIVE}${anyReady && !ready[i] ? " down" : ""};`);
  return `# Written by deploy/ready-watch.ts from each process's /api/ready; \`down\`: not ready.\n${lines.join("\n")}\n`;
};

/** Whether the process on `port` answers GET /api/ready with 200 within `timeoutMs`. */
export const isReady = async (port: number, timeoutMs = 1_500): Promise<boolean> => {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/ready`, { signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
};

/** Asks every process once and rewrites `file` when the picture changed; true when it did (then nginx wants a reload). */
export const refreshUpstream = async (ports: readonly number[], file: string): Promise<boolean> => {
  const text = upstreamFile(ports, await Promise.all(ports.map((p) => isReady(p))));
  let before = "";
  try {
    before = readFileSync(file, "utf8");
  } catch {}
  if (text === before) return false;
  writeFileSync(file, text);
  return true;
};

const main = async () => {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const ports = (option("ports") ?? process.env.ISOPTER_PORTS ?? "").split(",").filter(Boolean).map(Number);
  if (ports.length === 0 || ports.some((p) => !Number.isInteger(p) || p < 1 || p > 65535)) {
    console.error("usage: tsx deploy/ready-watch.ts --ports 4171,4172,4173 [--file PATH] [--reload COMMAND] [--every SECONDS] [--once]");
    process.exit(2);
  }
  const file = option("file") ?? "/etc/nginx/isopter-upstream.conf";
  const reload = option("reload") ?? "nginx -s reload";
  const everyMs = Number(option("every") ?? 2) * 1000;
  for (;;) {
    if (await refreshUpstream(ports, file)) {
      console.log(
        `upstream ${file}: ${readFileSync(file, "utf8")
          .split("\n")
          .filter((l) => l.startsWith("server"))
          .join(" ")}`,
      );
      try {
        execSync(reload, { stdio: "inherit" });
      } catch (e) {
        console.error(`reload failed (${reload}): ${(e as Error).message}`);
      }
    }
    if (args.includes("--once")) return;
    await new Promise((r) => setTimeout(r, everyMs));
  }
};

if (process.argv[1] === fileURLToPath(import.meta.url)) void main();
