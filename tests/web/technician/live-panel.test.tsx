// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";

vi.mock("@lingui/core/macro", () => import("../lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("../lingui-shim.tsx"));

import { GazeCalibration, Pattern, Strategy } from "../../../core/model/enums.ts";
import type { RunningTest } from "../../../core/model/running-test.ts";
import { LivePanel, liveVariantOf } from "../../../web/technician/LivePanel.tsx";
import { measurement, patient } from "./fixtures.ts";
import { Provider, createStore } from "jotai";
import { bindClient } from "../../../web/state/start-client.ts";
import { fakeApi, idleSocket } from "../render-app.tsx";
import { memoryStorage } from "../../../adapters/storage/index.ts";
import { systemClock } from "../../../adapters/clock/index.ts";

afterEach(cleanup);

const progress = (over: Partial<RunningTest> = {}): RunningTest => ({
  perimetryId: "a",
  appointmentId: null,
  nTested: 2,
  nLocations: 54,
  gazeTracking: null,
  thresholds: [
    { index: 0, dBValue: 30, answerTime: 380 },
    { index: 1, dBValue: null, answerTime: null },
    { index: 2, dBValue: 12, answerTime: null },
  ],
  lastUpdatedIndex: 1,
  ...over,
});
const show = (p: RunningTest, m = measurement("a"), gaze?: GazeCalibration) => {
  // The panel names the patient through core/client's cache.
  const store = createStore();
  bindClient(store, {
    api: fakeApi({ "patient.get": () => patient("p1", "Ada Lovelace") }).api,
    socket: idleSocket(),
    storage: memoryStorage(),
    clock: systemClock,
  });
  return render(
    <I18nProvider i18n={i18n}>
      <Provider store={store}>
        <LivePanel progress={p} measurement={m} laneName="Room 1" {...(gaze ? { gazeCalibration: gaze } : {})} />
      </Provider>
    </I18nProvider>,
  );
};

describe("live measurement panel (scheduling seed §2; accounts seed §4 live-view colours)", () => {
  it("'Live-view colour per point: green if answered, red if last updated and unanswered, gray otherwise'", () => {
    show(progress());
    const svg = screen.getByTestId("live-panel").querySelector("svg")!;
    const filled = [...svg.querySelectorAll('g[data-role="locations"] circle')]
      .map((c) => c.getAttribute("fill"))
      .filter((f) => f !== "none");
    // index 0 answered (green), index 1 last updated and unanswered (red), index 2 presented (gray)
    expect(filled).toEqual(["#1a7f37", "#cf222e", "#8c959f"]);
    const legend = within(screen.getByRole("list", { name: "Legend" }))
      .getAllByRole("listitem")
      .map((li) => li.textContent);
    expect(legend).toEqual(["Answered", "Not answered", "Presented"]);
  });

  it("shows the progress bar as the floor of tested over total", () => {
    show(progress({ nTested: 20, nLocations: 54 }));
    expect(screen.getByRole("progressbar").getAttribute("aria-valuenow")).toBe("37");
  });

  it("'supra-threshold and Esterman variants have their own titles'", () => {
    expect(liveVariantOf({ pattern: Pattern.P24_2, strategy: Strategy.Supra })).toBe("supra");
    expect(liveVariantOf({ pattern: Pattern.Esterman, strategy: Strategy.OneLevel })).toBe("esterman");
    expect(liveVariantOf({ pattern: Pattern.G, strategy: Strategy.SORS })).toBe("threshold");
    show(progress(), measurement("a", { strategy: Strategy.Supra }));
    expect(screen.getByRole("heading", { name: "Live measurement: supra-threshold" })).toBeTruthy();
    cleanup();
    show(progress({ nLocations: 120 }), measurement("a", { pattern: Pattern.Esterman, strategy: Strategy.OneLevel, eye: 3 }));
    expect(screen.getByRole("heading", { name: "Live measurement: Esterman" })).toBeTruthy();
  });

  it("names the patient (name and ID), the test, the eye, the pattern and the headset", async () => {
    show(progress());
    const panel = screen.getByTestId("live-panel");
    await waitFor(() => expect(within(panel).getByTestId("patient-name").textContent).toBe("Ada Lovelace · U-p1"));
    expect(within(panel).getByText("Test a · Right eye · 24-2 · Room 1")).toBeTruthy();
  });

  it("names the gaze calibration state", () => {
    show(progress(), measurement("a"), GazeCalibration.Failed);
    expect(screen.getByTestId("gaze-calibration").textContent).toBe("Gaze calibration failed");
  });
});
