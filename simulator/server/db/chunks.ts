/**
 * Writes `items` `size` at a time, one statement each, giving the event loop back between them. PGlite runs a
 * statement on the event loop, so one statement over thousands of rows held every socket and request for tens or
 * hundreds of milliseconds; chunks of a few milliseconds each let them through in between.
 */
export const writeInChunks = async <T>(items: readonly T[], size: number, write: (chunk: readonly T[]) => Promise<void>) => {
  for (let i = 0; i < items.length; i += size) {
    if (i > 0) await new Promise((next) => setImmediate(next));
    await write(items.slice(i, i + size));
  }
};
