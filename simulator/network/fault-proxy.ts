import { type Server, type Socket, connect, createServer } from "node:net";
import { type CutHow, HomeNetworkState, NO_NETWORK_FAULTS, type NetworkFaultRates, type RandomNetworkFault } from "./home-faults.ts";
import { OrderedPipe } from "./pipe.ts";
import { ClientFrameScanner, isWholeDataFrame } from "./ws-frames.ts";

// A fault-injecting TCP proxy in user space (Linux netem is not available on these machines; issue 31 §4), on 127.0.0.1
// and a free port, in front of a server's device socket. Every simulated home has its own network behind one listener:
// ws://127.0.0.1:P/home/<homeId>/device reaches the server as /device. Only the upgrade request's first line is read
// (and rewritten); after it bytes are forwarded as they come, through the home's faults: delays of 100-400 ms on every
// chunk (order kept), stalls, cuts (connections dropped, new ones refused or blackholed until the cut ends), half-open
// connections (nothing forwarded, nothing closed) and repeated frames (a headset's whole frame written twice). Each
// fault on demand (`home(id)`) or at random rates per home; `counters` says what it did.

export interface FaultProxyOptions {
  /** The server: its address (ws://, http:// or host:port; any path is ignored) or host and port; or several (the
   * processes of a cluster), each new connection going to the next in turn, as a load balancer in front of them. */
  readonly target: Target | readonly Target[];
  readonly rates?: Partial<NetworkFaultRates>;
  /** Seed of every home's random faults (default "fault-proxy"). */
  readonly seed?: string;
}

/** One home's network, faulted on demand. */
export interface HomeNetwork {
  /** Every chunk of the home's connections delayed 100-400 ms (order kept) for `ms`. */
  delay(ms: number): void;
  /** Nothing forwarded either way for `ms`; what arrives meanwhile follows after. */
  stall(ms: number): void;
  /** The link is cut for `ms`: open connections are dropped (reset both ways), new ones refused or blackholed. */
  cut(ms: number, how?: CutHow): void;
  /** The open connections turn half-open: both sides stay open, nothing is forwarded, no close passed on. */
  halfOpen(): void;
  /** The next `n` whole data frames from the headset are written twice. */
  repeatFrames(n: number): void;
  /** Connections open now (forwarding, or half-open). */
  readonly open: number;
}

export interface ProxyCounters {
  /** Connections forwarded to the server. */
  connections: number;
  refused: number;
  blackholed: number;
  unknownPath: number;
  /** Connections whose server could not be reached. */
  upstreamFailed: number;
  cuts: number;
  connectionsCut: number;
  /** Cuts still under way when `quiet()` ended them. */
  cutsEndedEarly: number;
  stalls: number;
  delaySpells: number;
  delayedChunks: number;
  halfOpens: number;
  connectionsHalfOpen: number;
  framesToServer: number;
  framesRepeated: number;
  bytesToServer: number;
  bytesToHeadsets: number;
  bytesSwallowed: number;
}

export interface FaultProxy {
  readonly port: number;
  /** The device socket address of a home behind the proxy. */
  urlFor(homeId: string): string;
  home(homeId: string): HomeNetwork;
  readonly counters: Readonly<ProxyCounters>;
  /** New random rates for every home (the next random wait uses them). */
  setRates(rates: Partial<NetworkFaultRates>): void;
  /** Random faults stop and every fault under way ends (half-open connections stay dead until their ends close them). */
  quiet(): void;
  close(): Promise<void>;
}

interface Conn {
  readonly client: Socket;
  readonly upstream: Socket;
  readonly pipes: OrderedPipe[];
  frozen: boolean;
}

interface Home {
  readonly state: HomeNetworkState;
  readonly conns: Set<Conn>;
  /** Connections blackholed by a cut: accepted and never answered. */
  readonly held: Set<Socket>;
}

const REQUEST_LINE = /^(\S+) \/home\/([^/\s]+)(\/\S*) (HTTP\/1\.[01])$/;

type Target = string | { readonly host: string; readonly port: number };

const targetOf = (t: Target) => {
  if (typeof t !== "string") return t;
  const u = new URL(t.includes("://") ? t : `tcp://${t}`);
  return { host: u.hostname, port: Number(u.port) };
};

export const startFaultProxy = async (o: FaultProxyOptions): Promise<FaultProxy> => {
  const targets = (Array.isArray(o.target) ? o.target : [o.target as Target]).map(targetOf);
  if (targets.length === 0) throw new Error("startFaultProxy: no target");
  let turn = 0;
  const seed = o.seed ?? "fault-proxy";
  let rates: NetworkFaultRates = { ...NO_NETWORK_FAULTS, ...o.rates };
  const counters: ProxyCounters = {
    connections: 0,
    refused: 0,
    blackholed: 0,
    unknownPath: 0,
    upstreamFailed: 0,
    cuts: 0,
    connectionsCut: 0,
    cutsEndedEarly: 0,
    stalls: 0,
    delaySpells: 0,
    delayedChunks: 0,
    halfOpens: 0,
    connectionsHalfOpen: 0,
    framesToServer: 0,
    framesRepeated: 0,
    bytesToServer: 0,
    bytesToHeadsets: 0,
    bytesSwallowed: 0,
  };
  const homes = new Map<string, Home>();
  const later = (ms: number) => Date.now() + ms;

  const network = (h: Home): HomeNetwork => ({
    delay: (ms) => {
      counters.delaySpells++;
      h.state.delayUntil = Math.max(h.state.delayUntil, later(ms));
    },
    stall: (ms) => {
      counters.stalls++;
      h.state.stallUntil = Math.max(h.state.stallUntil, later(ms));
    },
    cut: (ms, how = "refuse") => {
      counters.cuts++;
      h.state.cutUntil = Math.max(h.state.cutUntil, later(ms));
      h.state.cutHow = how;
      for (const c of h.conns) {
        counters.connectionsCut++;
        for (const p of c.pipes) p.cancel();
        c.client.resetAndDestroy();
        c.upstream.resetAndDestroy();
      }
      h.conns.clear();
    },
    halfOpen: () => {
      counters.halfOpens++;
      for (const c of h.conns)
        if (!c.frozen) {
          counters.connectionsHalfOpen++;
          c.frozen = true;
        }
    },
    repeatFrames: (n) => {
      h.state.repeatNext += n;
    },
    get open() {
      return h.conns.size;
    },
  });

  const fire = (h: Home, kind: RandomNetworkFault, r: NetworkFaultRates) => {
    const n = network(h);
    const draw = ([lo, hi]: readonly [number, number]) => h.state.rng.uniform(lo, hi);
    if (kind === "delay") n.delay(draw(r.delaySpellMs));
    else if (kind === "stall") n.stall(draw(r.stallMs));
    else if (kind === "cut") n.cut(draw(r.cutMs), h.state.rng.chance(r.refuseShare) ? "refuse" : "blackhole");
    else n.halfOpen();
  };

  const homeOf = (id: string): Home => {
    let h = homes.get(id);
    if (!h) {
      const made: Home = { state: new HomeNetworkState(id, seed, Date.now), conns: new Set(), held: new Set() };
      made.state.schedule(
        () => rates,
        (kind, r) => fire(made, kind, r),
      );
      homes.set(id, (h = made));
    }
    return h;
  };

  const forward = (client: Socket, h: Home, request: Buffer) => {
    counters.connections++;
    const target = targets[turn++ % targets.length]!;
    const upstream = connect(target.port, target.host);
    upstream.setNoDelay(true);
    const conn: Conn = { client, upstream, pipes: [], frozen: false };
    const gate = {
      delayMs: () => h.state.delayMs(),
      heldUntil: () => h.state.stallUntil,
      frozen: () => conn.frozen,
    };
    const toServer = new OrderedPipe(upstream, gate);
    const toClient = new OrderedPipe(client, gate);
    conn.pipes.push(toServer, toClient);
    h.conns.add(conn);
    const scanner = new ClientFrameScanner((header) => isWholeDataFrame(header) && h.state.repeats(rates.repeatRate));
    const delayed = () => counters.delayedChunks++;
    const fromClient = (chunk: Buffer) => {
      const [frames, repeated] = [scanner.frames, scanner.repeated];
      for (const piece of scanner.push(chunk)) toServer.push(piece, delayed);
      counters.framesToServer += scanner.frames - frames;
      counters.framesRepeated += scanner.repeated - repeated;
      counters.bytesToServer += chunk.length;
    };
    let reached = false;
    let closed = 0;
    const closedOne = () => {
      if (++closed === 2) {
        h.conns.delete(conn);
        counters.bytesSwallowed += toServer.swallowed + toClient.swallowed;
      }
    };
    upstream.on("connect", () => (reached = true));
    upstream.on("data", (chunk: Buffer) => {
      counters.bytesToHeadsets += chunk.length;
      toClient.push(chunk, delayed);
    });
    client.on("data", fromClient);
    client.on("end", () => toServer.end());
    upstream.on("end", () => toClient.end());
    // A close with an error (reset, unreachable server) passes on as one; a half-open connection passes on nothing.
    client.on("close", (hadError) => {
      if (!conn.frozen && hadError) upstream.destroy();
      closedOne();
    });
    upstream.on("close", (hadError) => {
      if (!reached) counters.upstreamFailed++;
      if (!conn.frozen && (hadError || !reached)) client.destroy();
      closedOne();
    });
    upstream.on("error", () => undefined);
    fromClient(request);
  };

  const route = (client: Socket, head: Buffer, eol: number) => {
    const m = REQUEST_LINE.exec(head.subarray(0, eol).toString("latin1"));
    if (!m) {
      counters.unknownPath++;
      client.end("HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
      return;
    }
    const h = homeOf(decodeURIComponent(m[2]!));
    if (h.state.cut) {
      if (h.state.cutHow === "refuse") {
        counters.refused++;
        client.resetAndDestroy();
        return;
      }
      counters.blackholed++;
      h.held.add(client);
      client.on("data", () => undefined);
      client.on("close", () => h.held.delete(client));
      return;
    }
    forward(client, h, Buffer.concat([Buffer.from(`${m[1]} ${m[3]} ${m[4]}`, "latin1"), head.subarray(eol)]));
  };

  const server: Server = createServer((client) => {
    client.setNoDelay(true);
    client.on("error", () => undefined);
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const eol = head.indexOf("\r\n");
      if (eol < 0) return void (head.length > 8192 && client.destroy());
      client.off("data", onData);
      route(client, head, eol);
    };
    client.on("data", onData);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as { port: number }).port;

  return {
    port,
    urlFor: (homeId) => `ws://127.0.0.1:${port}/home/${encodeURIComponent(homeId)}/device`,
    home: (homeId) => network(homeOf(homeId)),
    counters,
    setRates: (r) => {
      rates = { ...rates, ...r };
      for (const h of homes.values())
        h.state.schedule(
          () => rates,
          (kind, next) => fire(h, kind, next),
        );
    },
    quiet: () => {
      rates = { ...NO_NETWORK_FAULTS };
      for (const h of homes.values()) {
        h.state.unschedule();
        if (h.state.cut) counters.cutsEndedEarly++;
        h.state.heal();
      }
    },
    close: async () => {
      for (const h of homes.values()) {
        h.state.unschedule();
        for (const c of h.conns) {
          for (const p of c.pipes) p.cancel();
          c.client.destroy();
          c.upstream.destroy();
        }
        for (const s of h.held) s.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
