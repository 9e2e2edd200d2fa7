import type { QueueItem } from "../../core/device/protocol.ts";
import type { UploadMessage } from "./run.ts";

// Results the headset has not yet seen stored. A headset keeps them (as on its own storage, across power loss) and sends
// them again on every reconnect and after RETRY_MS without confirmation, so none is lost to a dropped frame or a
// network cut. Confirmation: a stand-alone result by the server's resultAccepted (it stores each resultId once); a
// queued measurement or examination by a queue that no longer lists it (the server takes it off the lane once stored,
// and a repeated upload is refused there without harm).

export const RETRY_MS = 10_000;

interface Entry {
  readonly message: UploadMessage;
  /** Clock time of the last send, or null while never sent. */
  sentAt: number | null;
}

export const uploadKey = (m: UploadMessage): string =>
  m.type === "standaloneResult"
    ? `standalone:${m.resultId}`
    : m.type === "result"
      ? `measurement:${m.measurementId}`
      : `examination:${m.examinationId}`;

export class Outbox {
  private readonly entries = new Map<string, Entry>();

  add(m: UploadMessage): void {
    this.entries.set(uploadKey(m), { message: m, sentAt: null });
  }

  /** The server stored this stand-alone result. */
  accepted(resultId: string): void {
    this.entries.delete(`standalone:${resultId}`);
  }

  /** A new queue: measurements and examinations it no longer lists, once sent, are stored. */
  settleByQueue(items: readonly QueueItem[]): void {
    const queued = new Set<string>();
    for (const i of items)
      if (i.kind === "measurement") queued.add(`measurement:${i.measurementId}`);
      else for (const e of i.examinations) queued.add(`examination:${e.examinationId}`);
    for (const [key, e] of this.entries)
      if (e.sentAt !== null && e.message.type !== "standaloneResult" && !queued.has(key)) this.entries.delete(key);
  }

  /** Entries to send now: never sent, or sent at least `retryMs` ago (all of them when `retryMs` is 0). */
  due(now: number, retryMs = RETRY_MS): UploadMessage[] {
    const out: UploadMessage[] = [];
    for (const e of this.entries.values())
      if (e.sentAt === null || now - e.sentAt >= retryMs) {
        e.sentAt = now;
        out.push(e.message);
      }
    return out;
  }

  /** Mark one as sent (it was sent as it was made). */
  sent(m: UploadMessage, now: number): void {
    const e = this.entries.get(uploadKey(m));
    if (e) e.sentAt = now;
  }

  get size(): number {
    return this.entries.size;
  }

  pending(): UploadMessage[] {
    return [...this.entries.values()].map((e) => e.message);
  }
}
