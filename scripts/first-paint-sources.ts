import { buildSync } from "esbuild";
import { join } from "node:path";

// The source files whose code /login runs before the full catalog is there: the entry (web/main.tsx) and the login page
// (the one route that renders without the client), each with its static imports, followed the way the bundler does
// (type-only imports are not followed; dynamic imports, which load later, are not). lingui.config.ts extracts their
// messages into the first-paint catalog (web/locales/{locale}/first-paint.po, web/i18n/activate.ts); everything else
// renders with the client, which loads the full catalog first (web/state/lazy-client.ts).

/** The modules the first paint of /login starts from, relative to the repository. */
export const firstPaintEntries = ["web/main.tsx", "web/pages/login/LoginPage.tsx"] as const;

/** The web/ source files of /login's first paint, relative to `repo` (the repository's root), sorted. */
export function firstPaintSources(repo: string = join(import.meta.dirname, "..")): string[] {
  const { metafile } = buildSync({
    absWorkingDir: repo,
    entryPoints: [...firstPaintEntries],
    bundle: true,
    splitting: true,
    format: "esm",
    write: false,
    metafile: true,
    outdir: "first-paint-sources", // nothing is written (write: false); esbuild needs a directory for several entries
    packages: "external",
    loader: { ".css": "empty" },
    logLevel: "error",
  });
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of metafile.inputs[file]?.imports ?? []) {
      if (imported.kind === "import-statement" && !imported.external) visit(imported.path);
    }
  };
  for (const entry of firstPaintEntries) visit(entry);
  return [...seen].filter((f) => f.startsWith("web/") && /\.tsx?$/.test(f)).sort();
}
