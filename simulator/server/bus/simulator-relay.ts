import { randomUUID } from "node:crypto";
import { Result } from "effect";
import { simulatorControl } from "../../../adapters/http/simulator-control.ts";
import { decode } from "../../../core/model/decode.ts";
import type { ErrorType } from "../../../core/model/contract/errors.ts";
import { type HeadsetControl, UnknownHeadset } from "../../control/port.ts";
import type { TokenClaims } from "../auth/token.ts";
import type { ServerContext } from "../context.ts";
import { Failure } from "../http/failure.ts";
import type { SpecHandlers } from "../http/handler.ts";
import { log } from "../log.ts";
import type { BusMessageOf } from "./messages.ts";
import type { Roster } from "./roster.ts";

// The simulator's control calls through any process (issue 17 §1). Each process runs the virtual headsets its
// start.ts gave it (none with HEADSETS=0); a call about a headset another process runs goes there through the bus
// with the caller's claims, runs there as it would have here, and its answer or failure comes back. The list and
// "all" settings gather every process's headsets; an add runs where headsets run (the one running fewest).

type Handlers = SpecHandlers<typeof simulatorControl>;
type Name = keyof typeof simulatorControl;
type Call = BusMessageOf<"simulator_call">;
type Reply = BusMessageOf<"simulator_reply">;

/** How long a call waits for the other processes' answers. */
const WAIT_MS = 3_000;

export const simulatorThroughBus = (
  ctx: ServerContext,
  roster: Roster,
  local: Handlers,
  simulator: HeadsetControl | undefined,
): Handlers => {
  const bus = ctx.bus;
  const running = () => simulator?.ready === true;
  const waiting = new Map<string, { replies: Reply[]; expected: number; done: () => void }>();

  const serve = async (m: Call) => {
    const answer = (outcome: Reply["outcome"], more: Partial<Pick<Reply, "data" | "failure">> = {}) =>
      bus.publish({
        type: "simulator_reply",
        requestId: m.requestId,
        to: m.from,
        by: bus.processId,
        outcome,
        headsets: running() ? simulator!.list().length : 0,
        ...more,
      });
    const spec = simulatorControl[m.name] as { query?: unknown; body?: unknown };
    const input = { query: m.query, body: m.body } as { query?: { deviceSn?: string }; body?: { deviceSn?: string } };
    const sn = input.query?.deviceSn ?? input.body?.deviceSn;
    if (!running()) return answer("none");
    if (sn !== undefined && !simulator!.has(sn)) return answer("skipped");
    try {
      const query = spec.query ? Result.getOrThrow(decode(spec.query as never, m.query)) : undefined;
      const body = spec.body ? Result.getOrThrow(decode(spec.body as never, m.body)) : undefined;
      const handler = local[m.name] as (call: unknown) => Promise<{ data: unknown }>;
      const reply = await handler({
        ctx,
        claims: m.claims as TokenClaims,
        client: "another process",
        ...(query ? { query } : {}),
        ...(body ? { body } : {}),
      });
      answer("ok", { data: reply.data });
    } catch (e) {
      if (!(e instanceof Failure)) log.warn("simulator_call_failed", { call: m.name, error: e });
      const failure =
        e instanceof Failure
          ? { type: e.type, message: e.message, ...(e.field ? { field: e.field } : {}) }
          : { type: "internal", message: "The simulator call failed" };
      answer("failed", { failure });
    }
  };
  bus.subscribe((m, fromHere) => {
    if (fromHere) return;
    if (m.type === "simulator_call" && (m.to === undefined || m.to === bus.processId)) void serve(m);
    if (m.type === "simulator_reply" && m.to === bus.processId) {
      const w = waiting.get(m.requestId);
      if (!w) return;
      w.replies.push(m);
      if (w.replies.length >= w.expected) w.done();
    }
  });

  /** Asks process `to` (or every other process) and gathers the answers. */
  const ask = async (
    name: Name,
    call: { claims: TokenClaims | undefined; query?: unknown; body?: unknown },
    to?: string,
  ): Promise<Reply[]> => {
    const expected = to ? 1 : (await roster.processes()) - 1;
    if (expected <= 0) return [];
    const requestId = randomUUID();
    const replies: Reply[] = [];
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => done(), WAIT_MS);
      const done = () => (clearTimeout(timer), waiting.delete(requestId), resolve());
      waiting.set(requestId, { replies, expected, done });
      bus.publish({
        type: "simulator_call",
        requestId,
        from: bus.processId,
        name,
        claims: call.claims,
        ...(to ? { to } : {}),
        ...(call.query !== undefined ? { query: call.query } : {}),
        ...(call.body !== undefined ? { body: call.body } : {}),
      });
    });
    return replies;
  };
  const failed = (r: Reply) => new Failure(r.failure!.type as ErrorType, r.failure!.message, r.failure!.field);
  /** The one answer of the process running the headset; none runs it: not_found naming the field, as here. */
  const whereItRuns = async <T>(
    name: Name,
    call: { claims: TokenClaims | undefined; query?: unknown; body?: unknown },
    sn: string,
    field: string,
    here: () => Promise<T>,
  ): Promise<T> => {
    if (running() && simulator!.has(sn)) return here();
    const replies = await ask(name, call);
    const answer = replies.find((r) => r.outcome === "ok" || r.outcome === "failed");
    if (!answer && !running() && replies.some((r) => r.outcome === "skipped"))
      throw new Failure("not_found", new UnknownHeadset(sn).message, field);
    if (!answer) return here();
    if (answer.outcome === "failed") throw failed(answer);
    return { data: answer.data } as T;
  };
  const headsetsOf = (replies: Reply[]) => replies.flatMap((r) => (r.outcome === "ok" ? (r.data as { headsets: unknown[] }).headsets : []));

  return {
    "simulator.headsets": async (call) => {
      const others = await ask("simulator.headsets", call);
      if (!running() && !others.some((r) => r.outcome === "ok")) return local["simulator.headsets"](call);
      const here = running() ? (await local["simulator.headsets"](call)).data.headsets : [];
      return { data: { headsets: [...here, ...headsetsOf(others)] as typeof here } };
    },
    "simulator.add": async (call) => {
      if (running()) return local["simulator.add"](call);
      const runners = (await ask("simulator.headsets", call)).filter((r) => r.outcome === "ok").sort((x, y) => x.headsets - y.headsets);
      if (!runners[0]) return local["simulator.add"](call);
      const [answer] = await ask("simulator.add", call, runners[0].by);
      if (!answer) throw new Failure("unavailable", "The process running the simulated headsets did not answer");
      if (answer.outcome !== "ok")
        throw answer.failure ? failed(answer) : new Failure("unavailable", "The process running the simulated headsets stopped them");
      return { data: answer.data as { headsets: never[] } };
    },
    "simulator.remove": (call) =>
      whereItRuns("simulator.remove", call, call.query.deviceSn, "query.deviceSn", () => local["simulator.remove"](call)),
    "simulator.fault": (call) =>
      whereItRuns("simulator.fault", call, call.body.deviceSn, "body.deviceSn", () => local["simulator.fault"](call)),
    "simulator.settings": async (call) => {
      if (call.body.deviceSn !== undefined)
        return whereItRuns("simulator.settings", call, call.body.deviceSn, "body.deviceSn", () => local["simulator.settings"](call));
      const others = await ask("simulator.settings", call);
      const failure = others.find((r) => r.outcome === "failed");
      if (failure) throw failed(failure);
      if (!running() && !others.some((r) => r.outcome === "ok")) return local["simulator.settings"](call);
      const here = running() ? (await local["simulator.settings"](call)).data.headsets : [];
      return { data: { headsets: [...here, ...headsetsOf(others)] as typeof here } };
    },
  };
};
