// Reads the client-to-server bytes of a WebSocket connection as they pass: the HTTP upgrade request up to its blank
// line, then frames (RFC 6455 §5.2: FIN, RSV1, opcode; a 7-bit length, or 126 + a 16-bit or 127 + a 64-bit one; a
// 4-byte mask key on every client frame). It hands the bytes back in order, split where a frame chosen for repeating
// ends, with that frame's complete copy after it: a frame written twice, intact, never inside another one.

export interface FrameHeader {
  readonly fin: boolean;
  /** Set on a compressed message (permessage-deflate): repeating it would break the shared compression context. */
  readonly rsv1: boolean;
  readonly opcode: number;
  readonly masked: boolean;
  readonly payloadLength: number;
}

/** A complete, unfragmented, uncompressed text or binary frame: a whole message the server reads again if repeated. */
export const isWholeDataFrame = (h: FrameHeader): boolean => h.fin && !h.rsv1 && (h.opcode === 1 || h.opcode === 2);

/** Length of a frame's header (2 to 14 bytes) once its first two bytes are known. */
const headerLength = (b1: number): number => {
  const len7 = b1 & 0x7f;
  return 2 + (len7 === 126 ? 2 : len7 === 127 ? 8 : 0) + (b1 & 0x80 ? 4 : 0);
};

export const readFrameHeader = (h: Buffer): FrameHeader => {
  const b0 = h[0]!;
  const b1 = h[1]!;
  const len7 = b1 & 0x7f;
  const payloadLength = len7 === 126 ? h.readUInt16BE(2) : len7 === 127 ? Number(h.readBigUInt64BE(2)) : len7;
  return { fin: (b0 & 0x80) !== 0, rsv1: (b0 & 0x40) !== 0, opcode: b0 & 0x0f, masked: (b1 & 0x80) !== 0, payloadLength };
};

const BLANK_LINE = Buffer.from("\r\n\r\n");

export class ClientFrameScanner {
  private inRequest = true;
  /** The last bytes of the request seen so far (its blank line may straddle two chunks). */
  private requestTail = Buffer.alloc(0);
  private header: Buffer[] = [];
  private headerBytes = 0;
  private remaining = -1;
  /** The frame under way's bytes, kept only when it is to be written again. */
  private copy: Buffer[] | null = null;
  /** Frames seen complete (after the request), and of them written twice. */
  frames = 0;
  repeated = 0;

  /** `repeat(header)` decides, as each frame's header is read, whether to write it twice. */
  constructor(private readonly repeat: (h: FrameHeader) => boolean) {}

  /** The bytes to forward for `chunk`, in order (the chunk itself, split where a repeated frame's copy goes in). */
  push(chunk: Buffer): Buffer[] {
    const out: Buffer[] = [];
    let start = 0;
    let i = 0;
    if (this.inRequest) {
      const seen = Buffer.concat([this.requestTail, chunk]);
      const end = seen.indexOf(BLANK_LINE);
      if (end < 0) {
        this.requestTail = seen.subarray(Math.max(0, seen.length - 3));
        return [chunk];
      }
      this.inRequest = false;
      i = end + BLANK_LINE.length - this.requestTail.length;
    }
    while (i < chunk.length) {
      if (this.remaining < 0) {
        // Reading a frame header: two bytes tell how long it is.
        const have = Buffer.concat(this.header);
        const want = have.length >= 2 ? headerLength(have[1]!) : 2;
        const take = Math.min(want - this.headerBytes, chunk.length - i);
        this.header.push(chunk.subarray(i, i + take));
        this.headerBytes += take;
        i += take;
        if (this.headerBytes < want) continue;
        const full = Buffer.concat(this.header);
        if (full.length === 2 && headerLength(full[1]!) > 2) continue; // the extended length and mask are next
        const h = readFrameHeader(full);
        this.copy = this.repeat(h) ? [Buffer.from(full)] : null;
        this.remaining = h.payloadLength;
      } else {
        const take = Math.min(this.remaining, chunk.length - i);
        this.copy?.push(Buffer.from(chunk.subarray(i, i + take)));
        this.remaining -= take;
        i += take;
      }
      if (this.remaining === 0) {
        this.frames++;
        if (this.copy) {
          this.repeated++;
          out.push(chunk.subarray(start, i), Buffer.concat(this.copy));
          start = i;
        }
        this.copy = null;
        this.header = [];
        this.headerBytes = 0;
        this.remaining = -1;
      }
    }
    if (start < chunk.length) out.push(chunk.subarray(start));
    return out;
  }
}
