import { describe, expect, it } from "vitest";
import { afterLoginPath } from "../../web/shell/after-login.ts";

// Issue 21: "after logging in from a deep link the app lands on /home".
describe("afterLoginPath", () => {
  it("goes back to the page asked for, with its query", () => {
    expect(afterLoginPath({ from: "/patient/p1/perimetry/m1?scrollToMeasurement=1" })).toBe(
      "/patient/p1/perimetry/m1?scrollToMeasurement=1",
    );
    expect(afterLoginPath({ from: "/technician?scrollTo=VR-0001/m1" })).toBe("/technician?scrollTo=VR-0001/m1");
  });
  it("goes home without one, and never to another origin or back to the login", () => {
    for (const state of [
      null,
      undefined,
      {},
      { from: 3 },
      { from: "https://evil.example/" },
      { from: "//evil.example/x" },
      { from: "/login?x=1" },
    ]) {
      expect(afterLoginPath(state)).toBe("/home");
    }
  });
});
