import type { Clock } from "../../core/ports.ts";
import type { NamedTimers } from "./timers.ts";
import type { Connector, Link } from "./transport.ts";

// The headset's network connection: opens a link through the connector, reconnects every `reconnectMs` after it
// closes (the seeds' reconnect interval is 1 s), and stays off the network for a while when told (Wi-Fi lost, refused).
// The device protocol on top (hello, welcome) is the headset's.

export interface UplinkHandlers {
  opened(): void;
  message(text: string): void;
  /** The open link closed or was dropped. */
  closed(): void;
  /** The route to open the next link with (the headset's organisation, once a welcome named it). */
  route?(): string | undefined;
}

export class Uplink {
  private link: Link | null = null;
  private connecting = false;
  private enabled = false;
  private offlineUntil = 0;

  constructor(
    private readonly connector: Connector,
    private readonly clock: Clock,
    private readonly timers: NamedTimers,
    private readonly reconnectMs: number,
    private readonly h: UplinkHandlers,
  ) {}

  get isOpen(): boolean {
    return this.link !== null;
  }

  /** Power on: connect, and keep reconnecting. */
  enable(): void {
    this.enabled = true;
    this.connect();
  }

  /** Power off or shut down: close (cleanly, or dropped as by a dead battery) and stop reconnecting. */
  disable(how: "close" | "drop"): void {
    this.enabled = false;
    this.timers.cancel("reconnect");
    const link = this.leave();
    if (how === "close") link?.close();
    else link?.drop();
  }

  /** Off the network for `ms` from now: the link drops at once (the server sees an abnormal close). */
  cut(ms: number): void {
    this.offlineUntil = Math.max(this.offlineUntil, this.clock.now() + ms);
    this.leave()?.drop();
    this.retry();
  }

  /** Close cleanly and wait `ms` before trying again (the server refused us). */
  backOff(ms: number): void {
    this.offlineUntil = Math.max(this.offlineUntil, this.clock.now() + ms);
    this.leave()?.close();
    this.retry();
  }

  send(text: string): boolean {
    if (!this.link) return false;
    this.link.send(text);
    return true;
  }

  /** Forget the current link (telling the headset it closed) and return it for closing. */
  private leave(): Link | null {
    const link = this.link;
    this.link = null;
    if (link) this.h.closed();
    return link;
  }

  private retry(): void {
    if (!this.enabled) return;
    this.timers.later("reconnect", Math.max(this.reconnectMs, this.offlineUntil - this.clock.now()), () => this.connect());
  }

  private connect(): void {
    if (!this.enabled || this.link || this.connecting) return;
    if (this.clock.now() < this.offlineUntil) return this.retry();
    this.connecting = true;
    let mine: Link | null = null;
    let gone = false;
    this.connector.open(
      {
        onOpen: (link) => {
          this.connecting = false;
          if (gone || !this.enabled || this.clock.now() < this.offlineUntil) return link.drop();
          mine = link;
          this.link = link;
          this.h.opened();
        },
        onMessage: (text) => {
          if (mine !== null && this.link === mine) this.h.message(text);
        },
        onClose: () => {
          gone = true;
          this.connecting = false;
          if (mine !== null && this.link !== mine) return; // a link already left (cut, backOff, disable)
          if (mine !== null) this.leave();
          this.retry();
        },
      },
      this.h.route?.(),
    );
  }
}
