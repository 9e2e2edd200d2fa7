// `npm start` runs this before the server: builds the web app (vite build into dist/web) only when its sources changed
// since the last build, so a warm start skips the build's seconds (issue 18). The sources are everything the bundle is
// made of: web/, core/ and adapters/ (the web imports both), the build configuration and the locked dependencies. Their
// fingerprint (SHA-256 over every file's path and content) is written beside the build; a build that failed or was
// interrupted leaves none, so the next start builds again. FORCE_WEB_BUILD=1 builds anyway.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("..", import.meta.url));
const outDir = join(repo, "dist/web");
const stampFile = join(outDir, ".sources.sha256");
const sources = ["web", "core", "adapters", "vite.config.ts", "lingui.config.ts", "package-lock.json", "tsconfig.json"];

/** Every file of a source: the file itself, or every file below a folder. */
const filesOf = (path: string): string[] => {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
};

export const sourcesFingerprint = (): string => {
  const hash = createHash("sha256");
  const files = sources.flatMap((s) => filesOf(join(repo, s))).sort();
  for (const file of files) hash.update(relative(repo, file)).update("\0").update(readFileSync(file)).update("\0");
  return hash.digest("hex");
};

const main = () => {
  const started = performance.now();
  const fingerprint = sourcesFingerprint();
  const built = existsSync(join(outDir, "index.html")) && existsSync(stampFile) ? readFileSync(stampFile, "utf8").trim() : null;
  if (built === fingerprint && process.env.FORCE_WEB_BUILD !== "1") {
    console.log(`Web app up to date (dist/web; sources unchanged, checked in ${Math.round(performance.now() - started)} ms)`);
    return;
  }
  rmSync(stampFile, { force: true });
  execFileSync(process.execPath, [join(repo, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], {
    cwd: repo,
    stdio: "inherit",
  });
  writeFileSync(stampFile, fingerprint + "\n");
  console.log(`Web app built into dist/web in ${((performance.now() - started) / 1000).toFixed(1)} s`);
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
