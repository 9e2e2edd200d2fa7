// The CLI as one bundled program (dist/cli/), built from the sources with esbuild when they changed since the last
// build, so `isopter` starts without tsx. Through tsx's loader (a worker thread transforming every module, sources kept
// with their inline maps) the CLI held about 150 MB before exporting anything; bundled, about 80 MB.
// npm packages stay outside the bundle (node_modules), except effect: loaded from its package, its few hundred modules
// took Node about 0.25 s to resolve and compile at every start, half of `isopter`'s start-up; bundled, only what the
// CLI uses is read, from one file. Modules the CLI imports lazily (DICOM, PDF, the live socket) become chunks loaded
// when a command asks for them.
// A build goes to its own folder; current.json names it with the stamp (mtime and size) of every source it read and is
// replaced in one rename, so two processes starting at once never read a half-written build. Plain JavaScript: it runs
// before any TypeScript loader.
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist", "cli");
const pointer = join(out, "current.json");
/** Read by esbuild besides the modules (compiler options), and this file (how it bundles). */
const settings = ["tsconfig.json", "package.json", "cli/bundle.mjs"];
/** Builds older than this are removed by the next build: a command still running from one may load a lazy chunk. */
const KEEP_OLD_MS = 24 * 3600_000;

const stampOf = (file) => {
  try {
    const s = statSync(join(root, file));
    return `${s.mtimeMs}:${s.size}`;
  } catch {
    return "missing";
  }
};

/** The entry of the current build, or null when there is none or a source it was built from changed. */
export function currentBundle() {
  let current;
  try {
    current = JSON.parse(readFileSync(pointer, "utf8"));
  } catch {
    return null;
  }
  const entry = join(out, current.dir, "main.mjs");
  if (!existsSync(entry)) return null;
  for (const [file, stamp] of Object.entries(current.inputs)) if (stampOf(file) !== stamp) return null;
  return entry;
}

/** Every package import left to Node, but effect's. */
const externalExceptEffect = {
  name: "external-except-effect",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path === "effect" || args.path.startsWith("effect/") ? undefined : { path: args.path, external: true },
    );
  },
};

/** Bundles cli/main.ts into a fresh folder and makes it current; returns its entry. */
export async function buildBundle() {
  const { build } = await import("esbuild");
  const dir = `build-${Date.now().toString(36)}-${process.pid}`;
  const result = await build({
    absWorkingDir: root,
    entryPoints: { main: "cli/main.ts" },
    outdir: join(out, dir),
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    plugins: [externalExceptEffect],
    metafile: true,
    logLevel: "silent",
  });
  const inputs = {};
  for (const file of [...Object.keys(result.metafile.inputs), ...settings]) inputs[file] = stampOf(file);
  const temporary = `${pointer}.${process.pid}`;
  writeFileSync(temporary, JSON.stringify({ dir, inputs }));
  renameSync(temporary, pointer);
  for (const old of readdirSync(out)) {
    const path = join(out, old);
    if (old.startsWith("build-") && old !== dir && Date.now() - statSync(path).mtimeMs > KEEP_OLD_MS)
      rmSync(path, { recursive: true, force: true });
  }
  return join(out, dir, "main.mjs");
}
