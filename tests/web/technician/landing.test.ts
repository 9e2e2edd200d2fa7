import { describe, expect, it, vi } from "vitest";

vi.mock("@lingui/core/macro", () => import("../lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("../lingui-shim.tsx"));

import { landingIndex } from "../../../web/technician/Lanes.tsx";
import { applyDropPlan, planDrop, type Card, type Lane } from "../../../core/scheduling/index.ts";

// The landing mark of a cross-lane drag shows where the planner puts the card, which is not always where the pointer
// is: "If a test is running on the target device the target index shifts by one so the running item stays first."

const card = (id: string, isFollowingEye: string | null = null): Card => ({ id, isFollowingEye });
const ids = (cards: readonly Card[]) => cards.map((c) => ({ id: c.id }));

describe("landingIndex", () => {
  it("is the place of the first card brought in", () => {
    expect(landingIndex(ids([card("x"), card("y")]), ids([card("x"), card("a"), card("y")]))).toBe(1);
    expect(landingIndex([], ids([card("a")]))).toBe(0);
  });

  it("follows the planner past a running item and its partner", () => {
    const lanes: Lane[] = [
      { deviceId: "A", running: false, items: [card("a")] },
      { deviceId: "B", running: true, items: [card("run"), card("l", "run"), card("y")] },
    ];
    const plan = planDrop(lanes, { source: { deviceId: "A", index: 0 }, destination: { deviceId: "B", index: 0 } });
    if (plan.outcome !== "moved") throw new Error("expected a move");
    expect(landingIndex(plan.before.to.items, plan.after.to.items)).toBe(2);
    expect(applyDropPlan(lanes, plan)[1]!.items.map((c) => c.id)).toEqual(["run", "l", "a", "y"]);
  });
});
