import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { fileSink } from "../../cli/export/sink.ts";

// The file an export writes (--out FILE) holds exactly the text written, in order, as UTF-8: the sink encodes pieces
// into a 256 kB buffer and flushes at 64 kB, so pieces that straddle a flush, fill the buffer or exceed it, and
// characters of two to four bytes at those edges, are where it could go wrong.

const dir = mkdtempSync(join(tmpdir(), "isopter-sink-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Text of a given length in units, built from one repeated sample (ASCII, accents, CJK, an emoji's surrogate pair). */
const piece = fc
  .tuple(fc.constantFrom("a", '{"x":1},\n', "é", "数", "😀", "aé数😀"), fc.integer({ min: 0, max: 120_000 }))
  .map(([unit, times]) => unit.repeat(Math.ceil(times / unit.length)));

describe("the --out file sink", () => {
  it("writes every piece, in order, as UTF-8, whatever their sizes and characters", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(piece, fc.string({ unit: "grapheme" })), { maxLength: 12 }), async (pieces) => {
        const path = join(dir, `out-${run++}.txt`);
        const sink = fileSink(path);
        for (const p of pieces) await sink.write(p);
        await sink.close();
        expect(readFileSync(path).equals(Buffer.from(pieces.join(""), "utf8"))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it("a piece larger than its buffer (a bundle entry with a printed page) is written whole", async () => {
    const path = join(dir, "large.txt");
    const sink = fileSink(path);
    const large = "é".repeat(700_000);
    await sink.write("head,");
    await sink.write(large);
    await sink.write(",tail");
    await sink.close();
    expect(readFileSync(path, "utf8")).toBe(`head,${large},tail`);
  });

  it("a file that cannot be opened throws at once, naming why, before anything is written", () => {
    expect(() => fileSink(join(dir, "no-such-dir", "out.csv"))).toThrow(/ENOENT/);
    expect(() => fileSink(dir)).toThrow(/EISDIR/);
  });

  it("refuses text after close (the file is complete when close resolves)", async () => {
    const sink = fileSink(join(dir, "closed.txt"));
    await sink.write("all");
    await sink.close();
    await expect(sink.write("more")).rejects.toThrow(/after it was closed/);
    expect(readFileSync(join(dir, "closed.txt"), "utf8")).toBe("all");
  });
});
