// The JavaScript /login loads, read from the web build's Vite manifest (dist/web/.vite/manifest.json): the entry chunk
// and the lazily loaded login page with their static imports, and the English first-paint catalog, the one catalog
// /login loads (web/i18n/activate.ts). `npm run size:login` weighs these files; e2e/first-paint.spec.ts checks that a
// browser on /login requests exactly them.

export interface ManifestChunk {
  readonly file: string;
  readonly imports?: ReadonlyArray<string>;
}

/** The manifest keys (relative to web/) /login starts from. */
export const loginRoots = ["index.html", "pages/login/LoginPage.tsx", "locales/en/first-paint.po"] as const;

/** The output files of the roots and of everything they import statically, once each. */
export const loginFiles = (manifest: Readonly<Record<string, ManifestChunk>>): Set<string> => {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const root of loginRoots) {
    if (!manifest[root]) throw new Error(`${root} is not in the build manifest`);
    visit(root);
  }
  return files;
};
