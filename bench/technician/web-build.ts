import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

// Which web build the bench serves. dist/web when it is newer than every source it is built from; otherwise a fresh
// `vite build` into the bench's temp directory (dist/web is left alone: other work in the tree may be serving it).
// `minify: false` keeps function names for the profile (React runs in production mode either way).

const sources = ["web", "core", "adapters", "vite.config.ts", "lingui.config.ts", "package-lock.json"];

const newest = (path: string): number => {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let t = 0;
  for (const entry of readdirSync(path)) if (entry !== "node_modules") t = Math.max(t, newest(join(path, entry)));
  return t;
};

export const distIsFresh = (repo: string): boolean => {
  const index = join(repo, "dist", "web", "index.html");
  return existsSync(index) && statSync(index).mtimeMs > Math.max(...sources.map((s) => newest(join(repo, s))));
};

export const viteBuild = (repo: string, outDir: string, minify: boolean): Promise<void> =>
  new Promise((resolve, reject) => {
    const args = [
      join(repo, "node_modules", "vite", "bin", "vite.js"),
      "build",
      "--outDir",
      outDir,
      "--emptyOutDir",
      "--logLevel",
      "error",
    ];
    if (!minify) args.push("--minify", "false");
    const child = spawn(process.execPath, args, { cwd: repo, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`vite build exited ${code}: ${err.slice(-2000)}`))));
  });
