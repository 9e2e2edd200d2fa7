import type { Socket } from "node:net";

// One direction of a proxied connection: chunks written to `to` in the order they came, each no earlier than its own
// delay allows (a chunk never overtakes the one before it, as on one TCP stream), none while the home network stalls,
// and none ever again once the connection is frozen half-open (they are swallowed). An end is passed on after the
// chunks before it.

export interface PipeGate {
  /** Delay for the next chunk, ms (0 when the home's network is not delaying). */
  delayMs(): number;
  /** Clock time until which nothing is forwarded (a stall), or 0. */
  heldUntil(): number;
  /** The connection is half-open: nothing is forwarded or closed any more. */
  frozen(): boolean;
}

export class OrderedPipe {
  private readonly queue: Array<{ chunk: Buffer | null; at: number }> = [];
  private lastAt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private waitingDrain = false;
  /** Bytes written on, and swallowed while frozen. */
  written = 0;
  swallowed = 0;

  constructor(
    private readonly to: Socket,
    private readonly gate: PipeGate,
    private readonly now: () => number = Date.now,
  ) {}

  /** A chunk from the other side; `delayed` counts it when the home's network delays it. */
  push(chunk: Buffer, delayed?: () => void): void {
    if (this.gate.frozen()) {
      this.swallowed += chunk.length;
      return;
    }
    const d = this.gate.delayMs();
    if (d > 0) delayed?.();
    this.enqueue(chunk, d);
  }

  /** The other side ended: end this one after what is queued. */
  end(): void {
    if (!this.gate.frozen()) this.enqueue(null, 0);
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.queue.length = 0;
  }

  /** Forward what is due now; called again by a timer, a drain, or the end of a stall. */
  pump = (): void => {
    this.timer = null;
    while (this.queue.length > 0 && !this.waitingDrain) {
      if (this.gate.frozen()) {
        for (const q of this.queue.splice(0)) this.swallowed += q.chunk?.length ?? 0;
        return;
      }
      const head = this.queue[0]!;
      const wait = Math.max(head.at, this.gate.heldUntil()) - this.now();
      if (wait > 0) {
        this.timer = setTimeout(this.pump, wait);
        return;
      }
      this.queue.shift();
      if (this.to.destroyed) continue;
      if (head.chunk === null) {
        this.to.end();
        continue;
      }
      this.written += head.chunk.length;
      if (!this.to.write(head.chunk)) {
        // Backpressure: the slow side's buffer is full; go on when it drains.
        this.waitingDrain = true;
        this.to.once("drain", () => {
          this.waitingDrain = false;
          this.pump();
        });
      }
    }
  };

  private enqueue(chunk: Buffer | null, delayMs: number): void {
    const at = Math.max(this.lastAt, this.now() + delayMs);
    this.lastAt = at;
    this.queue.push({ chunk, at });
    if (!this.timer && !this.waitingDrain) this.pump();
  }
}
