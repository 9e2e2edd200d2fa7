// Builds the web app (vite build into dist/web) only when its sources changed
// since the last build, so a warm start skips the build's seconds (issue 18). The sources are everything the bundle is
// made of: web/, core/ and adapters/ (the web imports both), the build configuration (with the first-paint catalog's
// list of sources, scripts/first-paint-sources.ts, which lingui.config.ts reads) and the locked dependencies. Their
// fingerprint (SHA-256 over every file's path and content) is written beside the build; a build that failed or was
// interrupted leaves none, so the next start builds again. FORCE_WEB_BUILD=1 builds anyway. `npm start` runs it
// beside the server's start (simulator/start.ts --build-web: the database opens, migrates and seeds meanwhile, and the
// server listens once the build is done); `npm run start:cluster` runs this script before its processes.
import { createHash } from "node:crypto";
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("..", import.meta.url));
const outDir = join(repo, "dist/web");
/** The stamp beside the build: the fingerprint of the sources it was built from. */
export const STAMP = ".sources.sha256";
const stampFile = join(outDir, STAMP);
const sources = [
  "web",
  "core",
  "adapters",
  "vite.config.ts",
  "lingui.config.ts",
  "scripts/first-paint-sources.ts",
  "package-lock.json",
  "tsconfig.json",
];

/** Every file of a source: the file itself, or every file below a folder. */
const filesOf = (path: string): string[] => {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
};

/** SHA-256 over every source file's path (relative to `root`) and content. */
export const sourcesFingerprint = (root: string = repo): string => {
  const hash = createHash("sha256");
  const files = sources.flatMap((s) => filesOf(join(root, s))).sort();
  for (const file of files) hash.update(relative(root, file)).update("\0").update(readFileSync(file)).update("\0");
  return hash.digest("hex");
};

export type WebBuildDecision = { build: false; fingerprint: string } | { build: true; fingerprint: string; why: string };

/**
 * Whether the web app under `root` must be built into `outDir`: yes when FORCE_WEB_BUILD=1, when there is no build
 * (no index.html) or no stamp (never built here, or the last build failed or was interrupted), or when the sources'
 * fingerprint differs from the stamp's; otherwise the build is up to date.
 */
export function webBuildDecision(root: string, outDir: string, env: NodeJS.ProcessEnv = process.env): WebBuildDecision {
  const fingerprint = sourcesFingerprint(root);
  const stamp = join(outDir, STAMP);
  const built = existsSync(join(outDir, "index.html")) && existsSync(stamp) ? readFileSync(stamp, "utf8").trim() : null;
  if (env.FORCE_WEB_BUILD === "1") return { build: true, fingerprint, why: "FORCE_WEB_BUILD=1" };
  if (built === null) return { build: true, fingerprint, why: "no build stamp" };
  if (built !== fingerprint) return { build: true, fingerprint, why: "sources changed" };
  return { build: false, fingerprint };
}

/** What a build that did not finish says (vite's own messages went to stderr before it). */
export class WebBuildError extends Error {}

/**
 * Builds the web app into dist/web when webBuildDecision says so, in a child process (vite build, its warnings and
 * errors on this process's stderr), and resolves with the line saying what happened; rejects with a WebBuildError when
 * the build fails. Asynchronous, so `npm start` (simulator/start.ts --build-web) opens, migrates and seeds the database
 * while it runs.
 */
export const buildWebIfChanged = async (): Promise<string> => {
  const started = performance.now();
  const decision = webBuildDecision(repo, outDir);
  if (!decision.build) return `Web app up to date (dist/web; sources unchanged, checked in ${Math.round(performance.now() - started)} ms)`;
  rmSync(stampFile, { force: true });
  const child = spawn(process.execPath, [join(repo, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], {
    cwd: repo,
    stdio: ["ignore", "inherit", "inherit"],
  });
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (c, s) => resolve([c, s]));
  });
  if (code !== 0)
    throw new WebBuildError(
      `the web app's build failed (vite ${signal ? `ended by ${signal}` : `exited with code ${code}`}; its messages are above)`,
    );
  writeFileSync(stampFile, decision.fingerprint + "\n");
  return `Web app built into dist/web in ${((performance.now() - started) / 1000).toFixed(1)} s (${decision.why})`;
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  buildWebIfChanged().then(
    (line) => console.log(line),
    (e: unknown) => {
      console.error(e instanceof WebBuildError ? `Isopter: ${e.message}` : e);
      process.exit(1);
    },
  );
