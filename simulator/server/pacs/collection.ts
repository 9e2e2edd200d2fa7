import { Writable } from "node:stream";
import { OPV_SOP_CLASS_UID } from "./association.ts";
import { part10File } from "./part10-file.ts";
import type { PacsInstance } from "./query.ts";

// The instances one fetch asked for, as the PACS's C-STORE sub-operations deliver them (on the C-GET's own association,
// or to Isopter's storage SCP after a C-MOVE). Only what was asked for is taken, and only within the limits: an
// instance over its size, or one that would take the fetch over its total, is refused with "out of resources" and
// named in the report; anything not asked for is refused as not authorised.

export interface StoreLimits {
  /** One instance (an OPV is some tens of kilobytes; a large one with its own report a few megabytes). */
  readonly maxInstanceBytes: number;
  /** Everything one fetch holds in memory before the import. */
  readonly maxTotalBytes: number;
}

/** C-STORE statuses (PS3.4 B.2.3, PS3.7 C): success, refused out of resources, SOP class not supported, not authorised. */
export const StoreStatus = { Success: 0x0000, OutOfResources: 0xa700, SopClassNotSupported: 0x0122, NotAuthorized: 0x0124 } as const;

/** A Writable that keeps what is written up to `max` bytes; `take` gives it, or null when there was more. */
export function limitedSink(max: number): Writable & { take(): Buffer | null } {
  const chunks: Buffer[] = [];
  let size = 0;
  const sink = new Writable({
    highWaterMark: 1 << 20,
    write(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size <= max) chunks.push(chunk);
      else chunks.length = 0;
      done();
    },
  });
  return Object.assign(sink, { take: () => (size <= max ? Buffer.concat(chunks, size) : null) });
}

export class Collection {
  /** Part 10 files by SOP Instance UID. */
  readonly received = new Map<string, Buffer>();
  /** Why an instance asked for did not arrive (or was refused on arrival). */
  readonly problems = new Map<string, string>();
  private bytes = 0;

  constructor(
    private readonly expected: ReadonlyMap<string, PacsInstance>,
    private readonly limits: StoreLimits,
  ) {}

  expects(sopInstanceUid: string): boolean {
    return this.expected.has(sopInstanceUid) && !this.received.has(sopInstanceUid);
  }

  /** One C-STORE: its dataset's bytes as they came (null: over the instance limit), and the status to answer. */
  offer(sopClassUid: string, sopInstanceUid: string, dataset: Buffer | null, transferSyntaxUid: string): number {
    if (!this.expects(sopInstanceUid)) return StoreStatus.NotAuthorized;
    if (sopClassUid !== OPV_SOP_CLASS_UID) {
      this.problems.set(sopInstanceUid, `the PACS sent it as SOP class ${sopClassUid}, not OPV`);
      return StoreStatus.SopClassNotSupported;
    }
    if (dataset === null) {
      this.problems.set(sopInstanceUid, `larger than the ${this.limits.maxInstanceBytes / 1048576} MiB one instance may be`);
      return StoreStatus.OutOfResources;
    }
    if (this.bytes + dataset.length > this.limits.maxTotalBytes) {
      this.problems.set(
        sopInstanceUid,
        `not taken: the fetch reached the ${this.limits.maxTotalBytes / 1048576} MiB it may hold at once (fetch again for the rest)`,
      );
      return StoreStatus.OutOfResources;
    }
    this.bytes += dataset.length;
    this.received.set(sopInstanceUid, part10File(dataset, sopClassUid, sopInstanceUid, transferSyntaxUid));
    this.problems.delete(sopInstanceUid);
    return StoreStatus.Success;
  }

  /** The retrieval's own word on an instance that did not arrive (kept unless a C-STORE said more). */
  missing(sopInstanceUid: string, reason: string): void {
    if (!this.received.has(sopInstanceUid) && !this.problems.has(sopInstanceUid)) this.problems.set(sopInstanceUid, reason);
  }
}
