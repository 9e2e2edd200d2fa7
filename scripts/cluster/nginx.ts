// Debian's nginx in front of a local cluster (start:cluster, the cluster suite): deploy/nginx/isopter.conf itself,
// with only its listen address (127.0.0.1 and a free port) and its upstream file's path changed, run as a process of
// its own with its prefix, configuration, pid, logs and temp files in a temp directory. Never as root: when this runs
// as root, nginx runs as `nobody`.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { upstreamFile } from "../../deploy/ready-watch.ts";

const siteConf = fileURLToPath(new URL("../../deploy/nginx/isopter.conf", import.meta.url));

/** The nginx binary (Debian puts it in /usr/sbin, often not on a user's PATH), or undefined when it is not installed. */
export const nginxBinary = (): string | undefined => {
  for (const p of ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"]) if (existsSync(p)) return p;
  try {
    return execFileSync("sh", ["-c", "command -v nginx"]).toString().trim() || undefined;
  } catch {
    return undefined;
  }
};

/** The deployed site configuration with a local listen address and upstream file. */
export const localSite = (listenPort: number, upstreamPath: string): string => {
  const site = readFileSync(siteConf, "utf8");
  const local = site
    .replace(/^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${listenPort};`)
    .replaceAll("include /etc/nginx/isopter-upstream.conf;", `include ${upstreamPath};`);
  if (local === site || local.includes("include /etc/nginx/isopter-upstream.conf;") || !local.includes(`127.0.0.1:${listenPort}`))
    throw new Error(`${siteConf} no longer has 'listen 80;' and the upstream includes this harness replaces`);
  return local;
};

/** A uid and gid to run nginx as when we are root: nobody's. */
const nobody = (): { uid: number; gid: number } => {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith("nobody:"));
  const [, , uid, gid] = line?.split(":") ?? [];
  if (uid === undefined || gid === undefined) throw new Error("no user nobody to run nginx as");
  return { uid: Number(uid), gid: Number(gid) };
};

export interface LocalNginx {
  readonly port: number;
  /** http://127.0.0.1:PORT */
  readonly url: string;
  readonly dir: string;
  readonly upstreamPath: string;
  /** Rewrites the upstream file (processes' ports, which of them are ready) and reloads nginx. */
  setUpstream(ports: readonly number[], ready?: readonly boolean[]): Promise<void>;
  /** Reloads nginx after its upstream file changed (resolves once the new workers answer). */
  reload(): Promise<void>;
  /** Its error log so far. */
  log(): string;
  stop(): Promise<void>;
}

const waitForPort = async (url: string, timeoutMs: number) => {
  for (const end = Date.now() + timeoutMs; Date.now() < end; ) {
    try {
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(1_000) });
      await res.body?.cancel();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`nginx on ${url} did not answer within ${timeoutMs / 1000} s`);
};

/** Starts nginx on 127.0.0.1:`port` in front of the processes at `ports`. */
export const startNginx = async (o: { port: number; ports: readonly number[]; binary?: string }): Promise<LocalNginx> => {
  const binary = o.binary ?? nginxBinary();
  if (!binary) throw new Error("nginx is not installed (Debian: apt-get install nginx; scripts/system-deps.sh does it as root)");
  const dir = mkdtempSync(join(tmpdir(), "isopter-nginx-"));
  for (const d of ["logs", "tmp"]) mkdirSync(join(dir, d));
  const upstreamPath = join(dir, "isopter-upstream.conf");
  const conf = join(dir, "nginx.conf");
  writeFileSync(upstreamPath, upstreamFile(o.ports));
  writeFileSync(
    conf,
    [
      "# A local nginx for Isopter's cluster (scripts/cluster/nginx.ts): everything in this directory.",
      "daemon off;",
      "worker_processes 1;",
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/logs/error.log warn;`,
      "events { worker_connections 4096; }",
      "http {",
      "    access_log off;",
      ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `    ${t}_temp_path ${dir}/tmp/${t};`),
      localSite(o.port, upstreamPath),
      "}",
      "",
    ].join("\n"),
  );
  const root = process.getuid?.() === 0;
  const as = root ? nobody() : undefined;
  if (as) for (const p of [dir, join(dir, "logs"), join(dir, "tmp"), upstreamPath, conf]) chownSync(p, as.uid, as.gid);
  const args = ["-p", dir, "-c", conf, "-e", `${dir}/logs/error.log`];
  execFileSync(binary, [...args, "-t", "-q"], { stdio: ["ignore", "ignore", "pipe"], ...(as ?? {}) });
  // Its own process group, so its workers go with it even when the master is killed.
  const child: ChildProcess = spawn(binary, args, { stdio: ["ignore", "ignore", "pipe"], detached: true, ...(as ?? {}) });
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {}
  };
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${o.port}`;
  const log = () => {
    try {
      return stderr + readFileSync(join(dir, "logs", "error.log"), "utf8");
    } catch {
      return stderr;
    }
  };
  try {
    await Promise.race([waitForPort(url, 15_000), exited.then(() => Promise.reject(new Error(`nginx exited: ${log()}`)))]);
  } catch (e) {
    kill("SIGKILL");
    throw new Error(`${(e as Error).message}\n${log()}`);
  }
  const workers = () =>
    execFileSync("pgrep", ["-P", String(child.pid)])
      .toString()
      .trim();
  const reload = async () => {
    const before = workers();
    child.kill("SIGHUP");
    // The old worker finishes its requests and leaves; a new one (another pid) serves the new configuration.
    for (const end = Date.now() + 10_000; Date.now() < end; ) {
      let now = "";
      try {
        now = workers();
      } catch {}
      if (now && !now.split("\n").some((pid) => before.split("\n").includes(pid))) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`nginx did not reload: ${log()}`);
  };
  return {
    port: o.port,
    url,
    dir,
    upstreamPath,
    async setUpstream(ports, ready) {
      writeFileSync(upstreamPath, upstreamFile(ports, ready));
      await reload();
    },
    reload,
    log,
    async stop() {
      kill("SIGQUIT");
      const forced = setTimeout(() => kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(forced);
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
