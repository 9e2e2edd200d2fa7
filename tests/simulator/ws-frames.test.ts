import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ClientFrameScanner, type FrameHeader, isWholeDataFrame } from "../../simulator/network/ws-frames.ts";

// The proxy's frame scanner over any split of a client's byte stream: the bytes come out in order, and each frame chosen
// for repeating is followed by its exact copy (RFC 6455 §5.2 framing: 7-bit, 16-bit and 64-bit lengths, masked).

const request = Buffer.from("GET /device HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n\r\n");

/** A masked client frame of `length` payload bytes (the length written as RFC 6455 says for its size). */
const clientFrame = (opcode: number, length: number, fin = true): Buffer => {
  const ext = length < 126 ? Buffer.alloc(0) : length < 65536 ? Buffer.alloc(2) : Buffer.alloc(8);
  if (length >= 126 && length < 65536) ext.writeUInt16BE(length);
  if (length >= 65536) ext.writeBigUInt64BE(BigInt(length));
  const len7 = length < 126 ? length : length < 65536 ? 126 : 127;
  const payload = Buffer.alloc(length, (length % 200) + 30);
  return Buffer.concat([Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | len7]), ext, Buffer.from([1, 2, 3, 4]), payload]);
};

const run = (frames: Buffer[], cuts: number[], repeatIndex: Set<number>) => {
  let n = 0;
  const seen: FrameHeader[] = [];
  const scanner = new ClientFrameScanner((h) => {
    seen.push(h);
    return repeatIndex.has(n++) && isWholeDataFrame(h);
  });
  const stream = Buffer.concat([request, ...frames]);
  const points = [...new Set(cuts.map((c) => c % stream.length))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let at = 0;
  for (const p of [...points, stream.length]) {
    out.push(...scanner.push(stream.subarray(at, p)));
    at = p;
  }
  return { out: Buffer.concat(out), seen, scanner };
};

describe("client frame scanner", () => {
  it("property: any split, any frames chosen: the stream in order with each chosen frame written twice", () => {
    const frame = fc.record({
      opcode: fc.constantFrom(1, 2, 9, 10),
      length: fc.oneof(fc.integer({ min: 0, max: 130 }), fc.integer({ min: 65_530, max: 65_540 }), fc.constantFrom(125, 126, 127)),
    });
    fc.assert(
      fc.property(
        fc.array(frame, { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.array(fc.nat({ max: 5 })),
        (specs, cuts, chosen) => {
          const frames = specs.map((s) => clientFrame(s.opcode, s.length));
          const repeat = new Set(chosen);
          const { out, seen, scanner } = run(frames, cuts, repeat);
          const expected = Buffer.concat([request, ...frames.flatMap((f, i) => (repeat.has(i) && specs[i]!.opcode <= 2 ? [f, f] : [f]))]);
          expect(out.equals(expected)).toBe(true);
          expect(seen.map((h) => h.payloadLength)).toEqual(specs.map((s) => s.length));
          expect(scanner.frames).toBe(frames.length);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("repeats no control frame, fragment or compressed message", () => {
    expect(isWholeDataFrame({ fin: true, rsv1: false, opcode: 1, masked: true, payloadLength: 3 })).toBe(true);
    expect(isWholeDataFrame({ fin: false, rsv1: false, opcode: 1, masked: true, payloadLength: 3 })).toBe(false);
    expect(isWholeDataFrame({ fin: true, rsv1: true, opcode: 1, masked: true, payloadLength: 3 })).toBe(false);
    expect(isWholeDataFrame({ fin: true, rsv1: false, opcode: 8, masked: true, payloadLength: 2 })).toBe(false);
    const { out } = run([clientFrame(1, 5, false), clientFrame(0, 5)], [], new Set([0, 1]));
    expect(out.equals(Buffer.concat([request, clientFrame(1, 5, false), clientFrame(0, 5)]))).toBe(true);
  });
});
