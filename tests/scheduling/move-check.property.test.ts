import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { lanesArbitrary } from "./lanes-arbitrary.ts";
import { areLinked, blockAt, checkMove, planDrop, type Card, type Lane, type MoveRequest } from "../../core/scheduling/index.ts";

// checkMove is the server's half of a drag (scheduling seed §4 "Drag and drop of measurements"): every move planDrop
// plans passes it, and a request that smuggles, drops, duplicates or reorders cards beyond the one move is refused
// naming the lane that is wrong.

const lanesArb = lanesArbitrary(2);

interface Drag {
  readonly fromLane: number;
  readonly fromIndex: number;
  readonly toLane: number;
  readonly toIndex: number;
}
const dragArb: fc.Arbitrary<Drag> = fc.record({ fromLane: fc.nat(3), fromIndex: fc.nat(11), toLane: fc.nat(3), toIndex: fc.nat(12) });

const ids = (lane: Lane) => lane.items.map((c) => c.id);

/** A drag planDrop accepts, as the lanes before it and the request core/client sends (drop-request.ts). */
const plannedMove = (lanes: readonly Lane[], d: Drag) => {
  const from = lanes[d.fromLane % lanes.length]!;
  const to = lanes[d.toLane % lanes.length]!;
  const plan = planDrop(lanes, {
    source: { deviceId: from.deviceId, index: d.fromIndex % Math.max(1, from.items.length) },
    destination: { deviceId: to.deviceId, index: d.toIndex },
  });
  if (plan.outcome !== "moved") return undefined;
  const request: MoveRequest = { movedId: plan.movedId, from: ids(plan.after.from), to: ids(plan.after.to) };
  return { before: plan.before, request, lanes };
};

/** The invariants an accepted request must keep, checked independently of checkMove. */
function keepsInvariants(before: { from: Lane; to: Lane }, r: MoveRequest): boolean {
  const same = before.from.deviceId === before.to.deviceId;
  const all = same ? ids(before.from) : [...ids(before.from), ...ids(before.to)];
  const after = same ? r.to : [...r.from, ...r.to];
  if ([...all].sort().join() !== [...after].sort().join()) return false;
  if (!same) {
    const lost = ids(before.from).filter((id) => !r.from.includes(id));
    const gained = r.to.filter((id) => !ids(before.to).includes(id));
    const index = before.from.items.findIndex((c) => c.id === r.movedId);
    const block = blockAt(before.from.items, index).map((i) => before.from.items[i]!.id);
    if (lost.join() !== block.join() || gained.join() !== block.join()) return false;
  }
  for (const [lane, order] of [
    [before.from, same ? r.to : r.from],
    [before.to, r.to],
  ] as const) {
    if (lane.running && lane.items.length > 0) {
      const front = blockAt(lane.items, 0).map((i) => lane.items[i]!.id);
      if (order.slice(0, front.length).join() !== front.join()) return false;
    }
    for (let i = 0; i + 1 < lane.items.length; i++) {
      const [a, b] = [lane.items[i]!, lane.items[i + 1]!];
      if (!areLinked(a, b)) continue;
      const where = (id: string): [string, number] => (r.to.includes(id) ? ["to", r.to.indexOf(id)] : ["from", r.from.indexOf(id)]);
      const [la, ia] = where(a.id);
      const [lb, ib] = where(b.id);
      if (la !== lb || Math.abs(ia - ib) !== 1) return false;
    }
  }
  return true;
}

describe("checkMove (property)", () => {
  it("accepts every move planDrop plans, within a lane and across lanes", () => {
    fc.assert(
      fc.property(lanesArb, dragArb, (lanes, d) => {
        const move = plannedMove(lanes, d);
        fc.pre(move !== undefined);
        expect(checkMove(move!.before, move!.request)).toEqual({ ok: true });
      }),
      { numRuns: 400 },
    );
  });

  it("refuses a cross-lane move that also smuggles another card of the source lane into the target", () => {
    fc.assert(
      fc.property(lanesArb, dragArb, fc.nat(20), fc.nat(20), (lanes, d, pick, at) => {
        const move = plannedMove(lanes, d);
        fc.pre(move !== undefined && move.before.from.deviceId !== move.before.to.deviceId && move.request.from.length > 0);
        const { before, request } = move!;
        const smuggled = request.from[pick % request.from.length]!;
        const to = [...request.to];
        to.splice(at % (to.length + 1), 0, smuggled);
        const check = checkMove(before, { ...request, from: request.from.filter((id) => id !== smuggled), to });
        expect(check).toMatchObject({ ok: false, field: "source" });
      }),
      { numRuns: 300 },
    );
  });

  it("refuses a cross-lane move whose target gains a card from a third lane, or loses one of its own", () => {
    fc.assert(
      fc.property(lanesArb, dragArb, fc.nat(20), fc.nat(20), (lanes, d, pick, at) => {
        const move = plannedMove(lanes, d);
        fc.pre(move !== undefined && move.before.from.deviceId !== move.before.to.deviceId);
        const { before, request } = move!;
        const third = lanes.filter((l) => l.deviceId !== before.from.deviceId && l.deviceId !== before.to.deviceId).flatMap(ids);
        if (third.length > 0) {
          const to = [...request.to];
          to.splice(at % (to.length + 1), 0, third[pick % third.length]!);
          expect(checkMove(before, { ...request, to })).toMatchObject({ ok: false, field: "target" });
        }
        const own = ids(before.to);
        if (own.length > 0) {
          const lost = own[pick % own.length]!;
          expect(checkMove(before, { ...request, to: request.to.filter((id) => id !== lost) })).toMatchObject({
            ok: false,
            field: "target",
          });
        }
      }),
      { numRuns: 300 },
    );
  });

  it("refuses a within-lane order that is not the same cards, or a duplicate", () => {
    fc.assert(
      fc.property(lanesArb, dragArb, fc.nat(20), (lanes, d, pick) => {
        const move = plannedMove(lanes, { ...d, toLane: d.fromLane });
        fc.pre(move !== undefined);
        const { before, request } = move!;
        const dup = [...request.to, request.to[pick % request.to.length]!];
        expect(checkMove(before, { ...request, from: dup, to: dup })).toMatchObject({ ok: false, field: "target" });
        const short = request.to.filter((_, i) => i !== pick % request.to.length);
        expect(checkMove(before, { ...request, from: short, to: short })).toMatchObject({ ok: false });
      }),
      { numRuns: 300 },
    );
  });

  it("whatever it accepts keeps every card once, moves only the dragged card (and its partner), the running item first and pairs side by side", () => {
    // Requests near planned ones: a planned move with two positions of either order swapped.
    fc.assert(
      fc.property(lanesArb, dragArb, fc.boolean(), fc.nat(20), fc.nat(20), (lanes, d, side, i, j) => {
        const move = plannedMove(lanes, d);
        fc.pre(move !== undefined);
        const { before, request } = move!;
        const swap = (order: readonly string[]) => {
          if (order.length < 2) return [...order];
          const out = [...order];
          const [a, b] = [i % out.length, j % out.length];
          [out[a], out[b]] = [out[b]!, out[a]!];
          return out;
        };
        const same = before.from.deviceId === before.to.deviceId;
        const mutated: MoveRequest = same
          ? { ...request, from: swap(request.to), to: swap(request.to) }
          : side
            ? { ...request, from: swap(request.from) }
            : { ...request, to: swap(request.to) };
        const check = checkMove(before, mutated);
        if (check.ok) expect(keepsInvariants(before, mutated)).toBe(true);
        else expect(["source", "target"]).toContain(check.field);
      }),
      { numRuns: 500 },
    );
  });
});

describe("checkMove (examples)", () => {
  const card = (id: string, isFollowingEye: string | null = null): Card => ({ id, isFollowingEye });
  const lane = (deviceId: string, items: Card[], running = false): Lane => ({ deviceId, items, running, revision: 1 });

  it("a moved card that is not in the source lane names the moved id", () => {
    const a = lane("A", [card("a1")]);
    const b = lane("B", [card("b1")]);
    expect(checkMove({ from: a, to: b }, { movedId: "b1", from: ["a1"], to: ["b1"] })).toMatchObject({ ok: false, field: "moved" });
  });

  it("a paired measurement leaves with its partner; moving it alone, or the pair split in the target, is refused", () => {
    const a = lane("A", [card("r"), card("l", "r"), card("x")]);
    const b = lane("B", [card("y"), card("z")]);
    expect(checkMove({ from: a, to: b }, { movedId: "l", from: ["x"], to: ["y", "r", "l", "z"] })).toEqual({ ok: true });
    expect(checkMove({ from: a, to: b }, { movedId: "l", from: ["r", "x"], to: ["y", "l", "z"] })).toMatchObject({
      ok: false,
      field: "source",
    });
    expect(checkMove({ from: a, to: b }, { movedId: "l", from: ["x"], to: ["r", "y", "l", "z"] })).toMatchObject({
      ok: false,
      field: "target",
    });
  });

  it("the running item stays first: it cannot leave, and nothing lands before it or between it and its partner", () => {
    const a = lane("A", [card("a1"), card("a2")], true);
    const b = lane("B", [card("r"), card("l", "r"), card("b3")], true);
    expect(checkMove({ from: a, to: b }, { movedId: "a1", from: ["a2"], to: ["a1", "r", "l", "b3"] })).toMatchObject({
      ok: false,
      field: "source",
    });
    expect(checkMove({ from: a, to: b }, { movedId: "a2", from: ["a1"], to: ["a2", "r", "l", "b3"] })).toMatchObject({
      ok: false,
      field: "target",
    });
    expect(checkMove({ from: a, to: b }, { movedId: "a2", from: ["a1"], to: ["r", "a2", "l", "b3"] })).toMatchObject({
      ok: false,
      field: "target",
    });
    expect(checkMove({ from: a, to: b }, { movedId: "a2", from: ["a1"], to: ["r", "l", "a2", "b3"] })).toEqual({ ok: true });
    expect(checkMove({ from: b, to: b }, { movedId: "b3", from: ["b3", "r", "l"], to: ["b3", "r", "l"] })).toMatchObject({
      ok: false,
      field: "target",
    });
  });

  it("within one lane both sides carry the same order", () => {
    const a = lane("A", [card("a1"), card("a2")]);
    expect(checkMove({ from: a, to: a }, { movedId: "a2", from: ["a2", "a1"], to: ["a2", "a1"] })).toEqual({ ok: true });
    expect(checkMove({ from: a, to: a }, { movedId: "a2", from: ["a1", "a2"], to: ["a2", "a1"] })).toMatchObject({
      ok: false,
      field: "source",
    });
  });
});
