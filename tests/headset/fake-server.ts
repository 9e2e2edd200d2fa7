import { Result } from "effect";
import type { Clock } from "../../core/ports.ts";
import {
  type CommandKind,
  type HeadsetMessage,
  type HomeSetting,
  PROTOCOL_VERSION,
  type QueueItem,
  type ServerMessage,
  type TestConfig,
  frame,
  readHeadsetFrame,
} from "../../core/device/protocol.ts";
import type { Connector, LinkHandlers } from "../../simulator/headset/transport.ts";
import { createRng } from "../../simulator/perimetry/random.ts";

// An in-memory device-socket server on a virtual clock, with the real server's rules that matter to a headset
// (simulator/server/device): welcome + queue + stand-alone on hello; a measurement's result removes it from the queue;
// stand-alone results are stored once per resultId and answered with resultAccepted. The network can be cut and frames
// to the headset dropped.

interface Conn {
  readonly h: LinkHandlers;
  open: boolean;
}

export class FakeServer {
  queue: QueueItem[] = [];
  /** With `home`, a home programme's schedule (a lent headset's setting). */
  standalone: { standaloneId: string; config: TestConfig; home?: HomeSetting } | null = null;
  /** Stand-alone results stored, by resultId (a resend is not stored again). */
  readonly standaloneStored = new Set<string>();
  /** Stand-alone result frames received, resends included. */
  standaloneReceived = 0;
  readonly measurementResults: string[] = [];
  readonly examinationResults: Array<{ examinationId: string; type: string }> = [];
  readonly messages: HeadsetMessage[] = [];
  readonly acks = new Map<string, { ok: boolean; error?: string }>();
  up = true;
  /** Called with each frame the server receives, at its arrival time. */
  onReceive: ((m: HeadsetMessage, at: number) => void) | null = null;
  /** Frames in both directions vanish without either side being told (a half-open connection). */
  blackhole = false;
  /** Share of frames to the headset that are lost. */
  dropToHeadset = 0;
  /** How long after the welcome the queue and stand-alone setting follow (the real server reads them from its
   * database first). */
  settingsDelayMs = 0;
  private readonly conns = new Set<Conn>();
  private readonly rng = createRng("fake-server");
  private commandSeq = 0;

  constructor(
    private readonly clock: Clock,
    private readonly latencyMs = 5,
  ) {}

  /** The organisation its welcome names (the route of a headset's later connections); none when undefined. */
  route: string | undefined = undefined;
  /** The route each connection was opened with, in order. */
  readonly routes: Array<string | undefined> = [];

  readonly connector: Connector = {
    open: (h, route) => {
      this.routes.push(route);
      if (!this.up) {
        this.clock.setTimeout(() => h.onClose(), this.latencyMs);
        return;
      }
      const conn: Conn = { h, open: true };
      this.conns.add(conn);
      this.clock.setTimeout(() => {
        if (!conn.open) return;
        h.onOpen({
          send: (text) => {
            if (!this.blackhole) this.clock.setTimeout(() => conn.open && this.receive(conn, text), this.latencyMs);
          },
          close: () => this.close(conn),
          drop: () => this.close(conn),
        });
      }, this.latencyMs);
    },
  };

  /** Drop every connection; with `down`, refuse new ones until `restore()`. */
  cut(down = false): void {
    this.up = !down;
    for (const c of [...this.conns]) this.close(c);
  }

  restore(): void {
    this.up = true;
  }

  get connections(): number {
    return [...this.conns].filter((c) => c.open).length;
  }

  command(kind: CommandKind): string {
    const commandId = `c${++this.commandSeq}`;
    this.broadcast({ type: "command", commandId, kind });
    return commandId;
  }

  setQueue(items: QueueItem[]): void {
    this.queue = items;
    this.broadcast({ type: "queue", items });
  }

  setStandalone(s: { standaloneId: string; config: TestConfig } | null): void {
    this.standalone = s;
    this.broadcast({ type: "standalone", standaloneId: s?.standaloneId ?? null, config: s?.config ?? null });
  }

  statuses(): string[] {
    return this.messages.flatMap((m) => (m.type === "status" ? [m.status] : []));
  }

  private close(conn: Conn): void {
    if (!conn.open) return;
    conn.open = false;
    this.conns.delete(conn);
    this.clock.setTimeout(() => conn.h.onClose(), this.latencyMs);
  }

  private broadcast(m: ServerMessage): void {
    for (const c of this.conns) this.sendTo(c, m);
  }

  private sendTo(conn: Conn, m: ServerMessage): void {
    if (this.blackhole || (this.dropToHeadset > 0 && m.type !== "welcome" && this.rng.chance(this.dropToHeadset))) return;
    const text = frame(m);
    this.clock.setTimeout(() => conn.open && conn.h.onMessage(text), this.latencyMs);
  }

  private receive(conn: Conn, text: string): void {
    const decoded = readHeadsetFrame(text);
    if (Result.isFailure(decoded)) throw new Error(`fake server: bad frame ${text}: ${decoded.failure.field} ${decoded.failure.message}`);
    const m = decoded.success;
    this.messages.push(m);
    this.onReceive?.(m, this.clock.now());
    switch (m.type) {
      case "hello": {
        // A pairing code is exchanged for a credential, as the real server does (simulator/server/device/handshake.ts).
        if (m.pairingCode !== undefined)
          this.sendTo(conn, { type: "enrolled", deviceSn: m.deviceSn, credential: `isd1.fake-${m.deviceSn}` });
        this.sendTo(conn, {
          type: "welcome",
          protocolVersion: PROTOCOL_VERSION,
          deviceSn: m.deviceSn,
          alias: "Sim",
          serverTime: this.clock.now(),
          ...(this.route !== undefined ? { route: this.route } : {}),
        });
        const settings = () => {
          if (!conn.open) return;
          this.sendTo(conn, { type: "queue", items: this.queue });
          this.sendTo(conn, {
            type: "standalone",
            standaloneId: this.standalone?.standaloneId ?? null,
            config: this.standalone?.config ?? null,
            ...(this.standalone?.home ? { home: this.standalone.home } : {}),
          });
        };
        if (this.settingsDelayMs > 0) this.clock.setTimeout(settings, this.settingsDelayMs);
        else settings();
        return;
      }
      case "ack":
        this.acks.set(m.commandId, { ok: m.ok, ...(m.error !== undefined ? { error: m.error } : {}) });
        return;
      case "result":
        if (this.queue.some((i) => i.kind === "measurement" && i.measurementId === m.measurementId)) {
          this.measurementResults.push(m.measurementId);
          this.setQueue(this.queue.filter((i) => !(i.kind === "measurement" && i.measurementId === m.measurementId)));
        }
        return;
      case "examinationResult": {
        const taken = this.queue.some((i) => i.kind === "appointment" && i.examinations.some((e) => e.examinationId === m.examinationId));
        if (!taken) return;
        this.examinationResults.push({ examinationId: m.examinationId, type: m.outcome.type });
        this.setQueue(
          this.queue
            .map((i) =>
              i.kind === "appointment" ? { ...i, examinations: i.examinations.filter((e) => e.examinationId !== m.examinationId) } : i,
            )
            .filter((i) => i.kind === "measurement" || i.examinations.length > 0),
        );
        return;
      }
      case "standaloneResult":
        this.standaloneReceived++;
        this.standaloneStored.add(m.resultId);
        this.sendTo(conn, { type: "resultAccepted", resultId: m.resultId });
        return;
      default:
        return;
    }
  }
}

export const testConfig = (over: Partial<TestConfig> = {}): TestConfig => ({
  patientId: "patient-1",
  patientBirthdate: "1960-05-01",
  displayName: "Test",
  eye: 0,
  pattern: 1,
  strategy: 1,
  sorsStage: null,
  stimuliUpdate: 2000,
  stimuliSize: 2,
  stimuliShowtime: 200,
  playSound: false,
  trackGaze: true,
  audioGuide: true,
  tutorial: false,
  ...over,
});

/** Headsets under test let their errors out (the default logs and carries on, as a fleet beside the server must). */
export const rethrow = (e: unknown): never => {
  throw e;
};
