import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { canReorderExaminations, REORDER_FAILED_NOTICE, REORDER_WIGGLE_MS, reorderExaminations } from "../../core/scheduling/index.ts";

describe("examination reorder (scheduling seed §4 'Examination reorder (side panel)')", () => {
  it("'Dragging is disabled with a single examination.'", () => {
    expect(canReorderExaminations(["e1"])).toBe(false);
    expect(canReorderExaminations(["e1", "e2"])).toBe(true);
    expect(reorderExaminations(["e1"], 0, 1)).toBeUndefined();
  });

  it("'Optimistic.' the new order moves one examination to its final index", () => {
    expect(reorderExaminations(["a", "b", "c"], 0, 2)).toEqual(["b", "c", "a"]);
    expect(reorderExaminations(["a", "b", "c"], 2, 0)).toEqual(["c", "a", "b"]);
    expect(reorderExaminations(["a", "b", "c"], 1, 1)).toBeUndefined();
  });

  it("'On failure: notice 'Examination couldn't be reordered / Please try again', a 500 ms wiggle, then revert.'", () => {
    expect(REORDER_FAILED_NOTICE).toMatchObject({ title: "Examination couldn't be reordered", hint: "Please try again" });
    expect(REORDER_WIGGLE_MS).toBe(500);
  });

  it("any reorder is a permutation", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string(), { minLength: 2, maxLength: 8 }), fc.nat(9), fc.nat(9), (ids, from, to) => {
        const next = reorderExaminations(ids, from, to);
        if (next) expect([...next].sort()).toEqual([...ids].sort());
      }),
      { numRuns: 100 },
    );
  });
});
