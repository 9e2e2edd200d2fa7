/** The entry of the current build, or null when there is none or a source it was built from changed. */
export function currentBundle(): string | null;
/** Bundles cli/main.ts into a fresh folder and makes it current; returns its entry. */
export function buildBundle(): Promise<string>;
