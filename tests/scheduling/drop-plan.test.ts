import { describe, expect, it } from "vitest";
import {
  applyDropPlan,
  appointmentDropRequest,
  CANNOT_DROP_NOTICE,
  measurementDropRequest,
  planDrop,
  runningTargetIndex,
  type Card,
  type Lane,
} from "../../core/scheduling/index.ts";

const card = (id: string, isFollowingEye?: string): Card => ({ id, isFollowingEye: isFollowingEye ?? null });
const lane = (deviceId: string, items: Card[], running = false, revision = 7): Lane => ({ deviceId, items, running, revision });
const ids = (l: Lane | undefined) => l?.items.map((c) => c.id);

describe("planDrop (scheduling seed §4 'Drag and drop of measurements')", () => {
  it("'Drops where destination equals source are ignored.'", () => {
    const lanes = [lane("A", [card("a"), card("b")])];
    expect(planDrop(lanes, { source: { deviceId: "A", index: 1 }, destination: { deviceId: "A", index: 1 } })).toEqual({
      outcome: "ignored",
      reason: "same-place",
    });
    expect(planDrop(lanes, { source: { deviceId: "A", index: 1 }, destination: null }).outcome).toBe("ignored");
  });

  it("moves a card within a lane (final-index convention)", () => {
    const lanes = [lane("A", [card("a"), card("b"), card("c")])];
    const plan = planDrop(lanes, { source: { deviceId: "A", index: 0 }, destination: { deviceId: "A", index: 2 } });
    expect(plan.outcome).toBe("moved");
    expect(ids(applyDropPlan(lanes, plan)[0])).toEqual(["b", "c", "a"]);
  });

  it("moves a card to another lane at the destination index", () => {
    const lanes = [lane("A", [card("a"), card("b")]), lane("B", [card("x"), card("y")])];
    const plan = planDrop(lanes, { source: { deviceId: "A", index: 1 }, destination: { deviceId: "B", index: 1 } });
    const after = applyDropPlan(lanes, plan);
    expect(ids(after[0])).toEqual(["a"]);
    expect(ids(after[1])).toEqual(["x", "b", "y"]);
  });

  it("'A measurement paired with another-eye one moves together with it' (either card of the pair dragged)", () => {
    const lanes = [lane("A", [card("r"), card("l", "r"), card("z")]), lane("B", [card("x")])];
    for (const index of [0, 1]) {
      const plan = planDrop(lanes, { source: { deviceId: "A", index }, destination: { deviceId: "B", index: 1 } });
      const after = applyDropPlan(lanes, plan);
      expect(ids(after[0])).toEqual(["z"]);
      expect(ids(after[1])).toEqual(["x", "r", "l"]);
    }
    const within = planDrop(lanes, { source: { deviceId: "A", index: 0 }, destination: { deviceId: "A", index: 2 } });
    expect(ids(applyDropPlan(lanes, within)[0])).toEqual(["z", "r", "l"]);
  });

  it("'A drop between two paired measurements ... is refused with notice 'cannot drop here' (3 s) and a hint'", () => {
    const lanes = [lane("A", [card("a")]), lane("B", [card("r"), card("l", "r")])];
    const plan = planDrop(lanes, { source: { deviceId: "A", index: 0 }, destination: { deviceId: "B", index: 1 } });
    expect(plan).toEqual({ outcome: "refused", notice: CANNOT_DROP_NOTICE });
    expect(CANNOT_DROP_NOTICE).toMatchObject({ title: "cannot drop here", hint: "no items between linked cards", durationMs: 3000 });
  });

  it("'If a test is running on the target device the target index shifts by one so the running item stays first.'", () => {
    expect(runningTargetIndex([card("run"), card("y")], 0)).toBe(1);
    expect(runningTargetIndex([card("run"), card("l", "run"), card("y")], 0)).toBe(2);
    expect(runningTargetIndex([card("run"), card("y")], 2)).toBe(2);
    const lanes = [lane("A", [card("a")]), lane("B", [card("run"), card("y")], true)];
    const plan = planDrop(lanes, { source: { deviceId: "A", index: 0 }, destination: { deviceId: "B", index: 0 } });
    expect(ids(applyDropPlan(lanes, plan)[1])).toEqual(["run", "a", "y"]);
  });

  it("a drop at index 0 of a lane whose running item has an other-eye partner lands after the pair", () => {
    // Seed §4: "If a test is running on the target device the target index shifts by one so the running item stays
    // first." and "A measurement paired with another-eye one moves together with it.": the running item and its
    // partner stay first, the dropped card goes after them (it is not a drop between the pair).
    const lanes = [lane("A", [card("a")]), lane("B", [card("run"), card("l", "run"), card("y")], true)];
    const plan = planDrop(lanes, { source: { deviceId: "A", index: 0 }, destination: { deviceId: "B", index: 0 } });
    expect(plan.outcome).toBe("moved");
    expect(ids(applyDropPlan(lanes, plan)[1])).toEqual(["run", "l", "a", "y"]);
    // Within the running lane too: the last card dragged to the front stops behind the running pair.
    const within = planDrop(lanes, { source: { deviceId: "B", index: 2 }, destination: { deviceId: "B", index: 0 } });
    expect(within).toEqual({ outcome: "ignored", reason: "same-place" });
    const longer = [lane("B", [card("run"), card("l", "run"), card("x"), card("y")], true)];
    const front = planDrop(longer, { source: { deviceId: "B", index: 3 }, destination: { deviceId: "B", index: 0 } });
    expect(ids(applyDropPlan(longer, front)[0])).toEqual(["run", "l", "y", "x"]);
  });

  it("a drop between the running item and its partner is still refused ('Cards are not droppable between linked perimetry cards')", () => {
    const lanes = [lane("A", [card("a")]), lane("B", [card("run"), card("l", "run")], true)];
    expect(planDrop(lanes, { source: { deviceId: "A", index: 0 }, destination: { deviceId: "B", index: 1 } })).toEqual({
      outcome: "refused",
      notice: CANNOT_DROP_NOTICE,
    });
  });

  it("the running item (and its partner) does not move", () => {
    const lanes = [lane("A", [card("run"), card("l", "run"), card("c")], true), lane("B", [])];
    for (const index of [0, 1]) {
      const plan = planDrop(lanes, { source: { deviceId: "A", index }, destination: { deviceId: "B", index: 0 } });
      expect(plan).toEqual({ outcome: "ignored", reason: "running-item" });
    }
  });

  it("the measurement request carries the new orders and the revisions seen before the move", () => {
    const lanes = [lane("A", [card("a"), card("b")], false, 3), lane("B", [card("x")], false, 9)];
    const plan = planDrop(lanes, { source: { deviceId: "A", index: 0 }, destination: { deviceId: "B", index: 0 } });
    if (plan.outcome !== "moved") throw new Error("expected a move");
    expect(measurementDropRequest(plan)).toEqual({
      movedPerimetryId: "a",
      from: { deviceId: "A", perimetriesIds: ["b"], revision: 3 },
      to: { deviceId: "B", perimetriesIds: ["a", "x"], revision: 9 },
    });
    expect(appointmentDropRequest(plan)).toEqual({
      movedAppointmentId: "a",
      from: { deviceId: "A", appointmentsIds: ["b"] },
      to: { deviceId: "B", appointmentsIds: ["a", "x"] },
    });
  });
});
