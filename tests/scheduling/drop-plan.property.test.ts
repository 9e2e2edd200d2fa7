import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { lanesArbitrary } from "./lanes-arbitrary.ts";
import { applyDropPlan, areLinked, blockAt, planDrop, type Lane } from "../../core/scheduling/index.ts";

// "any sequence of drags, accepted or refused, leaves every lane a permutation of its items with pairs adjacent and
// the running item first" (issue #6, over the rules of scheduling seed §4 'Drag and drop of measurements').

const lanesArb = lanesArbitrary(1);

const dragArb = fc.record({
  fromLane: fc.nat(3),
  fromIndex: fc.nat(11),
  toLane: fc.nat(3),
  toIndex: fc.nat(12),
  dropped: fc.boolean(),
});

function pairsOf(lanes: readonly Lane[]): Array<[string, string]> {
  const all = lanes.flatMap((l) => l.items);
  return all.filter((c) => c.isFollowingEye != null).map((c) => [c.isFollowingEye!, c.id]);
}

describe("drag sequences (property)", () => {
  it("keep every card once, pairs adjacent in one lane, and the running item first", () => {
    fc.assert(
      fc.property(lanesArb, fc.array(dragArb, { maxLength: 12 }), (initial, drags) => {
        const allIds = initial.flatMap((l) => l.items.map((c) => c.id)).sort();
        const pairs = pairsOf(initial);
        const runningFirst = new Map(initial.filter((l) => l.running).map((l) => [l.deviceId, l.items[0]!.id]));
        let lanes = initial;
        for (const d of drags) {
          const from = lanes[d.fromLane % lanes.length]!;
          const to = lanes[d.toLane % lanes.length]!;
          const plan = planDrop(lanes, {
            source: { deviceId: from.deviceId, index: d.fromIndex % Math.max(1, from.items.length) },
            destination: d.dropped ? { deviceId: to.deviceId, index: d.toIndex } : null,
          });
          lanes = applyDropPlan(lanes, plan);

          expect(lanes.flatMap((l) => l.items.map((c) => c.id)).sort()).toEqual(allIds);
          for (const [a, b] of pairs) {
            const lane = lanes.find((l) => l.items.some((c) => c.id === a))!;
            const ia = lane.items.findIndex((c) => c.id === a);
            const ib = lane.items.findIndex((c) => c.id === b);
            expect(Math.abs(ia - ib)).toBe(1);
            expect(areLinked(lane.items[ia]!, lane.items[ib]!)).toBe(true);
          }
          for (const [deviceId, id] of runningFirst) expect(lanes.find((l) => l.deviceId === deviceId)!.items[0]!.id).toBe(id);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("an accepted drop changes at most the two lanes it names", () => {
    fc.assert(
      fc.property(lanesArb, dragArb, (lanes, d) => {
        const from = lanes[d.fromLane % lanes.length]!;
        const to = lanes[d.toLane % lanes.length]!;
        const plan = planDrop(lanes, {
          source: { deviceId: from.deviceId, index: d.fromIndex % Math.max(1, from.items.length) },
          destination: { deviceId: to.deviceId, index: d.toIndex },
        });
        const after = applyDropPlan(lanes, plan);
        after.forEach((l, i) => {
          if (l.deviceId !== from.deviceId && l.deviceId !== to.deviceId) expect(l).toBe(lanes[i]);
        });
        if (plan.outcome !== "moved") expect(after).toEqual(lanes);
      }),
      { numRuns: 200 },
    );
  });

  // Seed §4: "If a test is running on the target device the target index shifts by one so the running item stays
  // first." and "Cards are not droppable between linked perimetry cards." Over single drops, any index:
  it("a drop never places anything before a running item or between a linked pair", () => {
    fc.assert(
      fc.property(lanesArb, dragArb, (lanes, d) => {
        const from = lanes[d.fromLane % lanes.length]!;
        const to = lanes[d.toLane % lanes.length]!;
        const plan = planDrop(lanes, {
          source: { deviceId: from.deviceId, index: d.fromIndex % Math.max(1, from.items.length) },
          destination: { deviceId: to.deviceId, index: d.toIndex },
        });
        if (plan.outcome !== "moved") return;
        for (const lane of [plan.after.from, plan.after.to]) {
          const before = lanes.find((l) => l.deviceId === lane.deviceId)!;
          if (before.running) {
            // The running block (the running item and its adjacent partner) keeps the front places.
            const block = blockAt(before.items, 0).map((i) => before.items[i]!.id);
            expect(lane.items.slice(0, block.length).map((c) => c.id)).toEqual(block);
          }
          // Every pair that was adjacent stays adjacent: nothing landed between them.
          for (const c of lane.items) {
            if (c.isFollowingEye == null) continue;
            const i = lane.items.findIndex((x) => x.id === c.isFollowingEye);
            if (i >= 0) expect(Math.abs(i - lane.items.indexOf(c))).toBe(1);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("a drop at index 0 of another lane that runs a test is never refused: it lands after the running item and its partner", () => {
    fc.assert(
      fc.property(lanesArb, dragArb, (lanes, d) => {
        const from = lanes[d.fromLane % lanes.length]!;
        const to = lanes[d.toLane % lanes.length]!;
        fc.pre(from !== to && to.running && from.items.length > 0);
        const index = d.fromIndex % from.items.length;
        fc.pre(!(from.running && blockAt(from.items, index).includes(0)));
        const plan = planDrop(lanes, { source: { deviceId: from.deviceId, index }, destination: { deviceId: to.deviceId, index: 0 } });
        expect(plan.outcome).toBe("moved");
        if (plan.outcome !== "moved") return;
        const runningBlock = blockAt(to.items, 0).length;
        const moved = blockAt(from.items, index).map((i) => from.items[i]!.id);
        expect(plan.after.to.items.slice(runningBlock, runningBlock + moved.length).map((c) => c.id)).toEqual(moved);
      }),
      { numRuns: 300 },
    );
  });
});
