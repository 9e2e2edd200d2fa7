import { describe, expect, it } from "vitest";
import { orderPinnedFirst, togglePin } from "../../core/scheduling/index.ts";

describe("pinned lanes (scheduling seed §2 'Technician view')", () => {
  it("'pinned devices come first' keeping each group's order", () => {
    const lanes = ["a", "b", "c", "d"];
    expect(orderPinnedFirst(lanes, new Set(["d", "b"]), (x) => x)).toEqual(["b", "d", "a", "c"]);
  });
  it("toggling a pin adds or removes it", () => {
    expect(togglePin(["a"], "b")).toEqual(["a", "b"]);
    expect(togglePin(["a", "b"], "a")).toEqual(["b"]);
  });
});
