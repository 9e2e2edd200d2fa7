// @vitest-environment happy-dom
// Lanes out of view fill in after the first paint (web/technician/lane-rendering.ts): the lanes a screen shows render
// with their cards at once, the others as a placeholder that fills in during idle time; the lane ?scrollTo names is
// complete from the start, so "/technician?scrollTo={deviceSn}/{id} scrolls to the device card and makes it blink".
import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, screen, waitFor, within } from "@testing-library/react";

vi.mock("@lingui/core/macro", () => import("../lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("../lingui-shim.tsx"));

import { fakeApi } from "../render-app.tsx";
import { device, measurement } from "./fixtures.ts";
import { renderTechnician } from "./render.tsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const LANES = 12;
const devices = () => Array.from({ length: LANES }, (_, i) => device(i + 1, [measurement(`m${i + 1}a`), measurement(`m${i + 1}b`)]));
const lanes = () => screen.getAllByTestId("lane");
const cardsIn = (lane: HTMLElement) => lane.querySelectorAll("[data-card-id]").length;

/** Idle callbacks held until the test releases them, so the first paint can be looked at on its own. */
function holdIdle() {
  const held: Array<() => void> = [];
  vi.stubGlobal("requestIdleCallback", (run: IdleRequestCallback) => {
    held.push(() => run({ didTimeout: false, timeRemaining: () => 50 }));
    return held.length;
  });
  vi.stubGlobal("cancelIdleCallback", () => undefined);
  return {
    release: () => {
      for (const run of held.splice(0)) run();
    },
  };
}

describe("fifty lanes of twenty cards: the lanes in view first, the rest in idle time", () => {
  it("renders the lanes a window shows with their cards, the others as busy placeholders, then fills every lane", async () => {
    const idle = holdIdle();
    let answer!: (v: unknown) => void;
    const { api } = fakeApi({
      "device.all": () =>
        new Promise((r) => {
          answer = r;
        }),
    });
    renderTechnician(api);
    await act(async () => answer(devices()));

    // Every lane is there (header, name, controls) in its order; happy-dom's window is 768 px, which shows three lanes
    // of cards (each over 300 px tall): those three are complete.
    expect(lanes().map((l) => l.getAttribute("data-device-sn"))).toEqual(devices().map((d) => d.deviceSn));
    const complete = lanes().filter((l) => cardsIn(l) === 2);
    const waiting = lanes().filter((l) => l.getAttribute("aria-busy") === "true");
    expect(complete.map((l) => l.getAttribute("data-device-sn"))).toEqual(["SN1", "SN2", "SN3"]);
    expect(waiting).toHaveLength(LANES - 3);
    for (const lane of waiting) {
      expect(cardsIn(lane)).toBe(0);
      expect(within(lane).getByRole("button", { name: "Pin Room " + lane.getAttribute("data-device-sn")!.slice(2) })).toBeTruthy();
    }

    // Idle time fills the rest, a few lanes per step, until none is waiting.
    await waitFor(() => {
      act(() => idle.release());
      expect(lanes().filter((l) => l.getAttribute("aria-busy") === "true")).toHaveLength(0);
    });
    expect(lanes().map(cardsIn)).toEqual(Array(LANES).fill(2));
  });

  it("renders the lane ?scrollTo names complete in the first paint, and blinks its card", async () => {
    holdIdle();
    const { api } = fakeApi({ "device.all": () => devices() });
    renderTechnician(api, { path: "/technician?scrollTo=SN11/m11b" });
    await waitFor(() => expect(lanes()).toHaveLength(LANES));
    const target = lanes().find((l) => l.getAttribute("data-device-sn") === "SN11")!;
    expect(target.getAttribute("aria-busy")).toBeNull();
    expect(cardsIn(target)).toBe(2);
    await waitFor(() => expect(document.getElementById("card-m11b")!.className).toContain("mcard-blink"));
    // Its neighbours out of view still wait for idle time.
    expect(
      lanes()
        .find((l) => l.getAttribute("data-device-sn") === "SN10")!
        .getAttribute("aria-busy"),
    ).toBe("true");
  });
});
