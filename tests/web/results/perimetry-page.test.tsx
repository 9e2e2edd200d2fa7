// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";

vi.mock("@lingui/core/macro", () => import("./lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("./lingui-shim.tsx"));

import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { Provider, createStore } from "jotai";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { memoryStorage } from "../../../adapters/storage/index.ts";
import { systemClock } from "../../../adapters/clock/index.ts";
import { Eye, Pattern, Showtime, StimuliUpdate, StimulusSize, Strategy, TestType, type Eye as EyeT } from "../../../core/model/enums.ts";
import type { Examination } from "../../../core/model/examination.ts";
import type { Measurement } from "../../../core/model/measurement.ts";
import { StorageKeys } from "../../../core/ports.ts";
import { bindClient } from "../../../web/state/start-client.ts";
import PatientLayout from "../../../web/pages/patient/PatientLayout.tsx";
import PerimetryPage from "../../../web/pages/patient/PerimetryPage.tsx";
import { ShapeRendererContext } from "../../../web/results/SceneView.tsx";
import { analyseStored } from "../../../web/results/result-model.ts";
import { fakeApi, idleSocket, tokenFor, type Handler } from "../render-app.tsx";
import { DomShapes, fixture, InViewObserver, patient } from "./fixtures.tsx";

// The patient's perimetry page in the appointment variant (organisation multi-tests on): a perimetry examination's
// result is shown like a measurement's (plots, indices, progression, history), selected by its id from home's recent
// tests and the 'measurement ready' notice (/patient/{id}/perimetry/{examinationId}?scrollToMeasurement=1), and its
// notes are saved with PATCH examination/update. The page runs inside PatientLayout over core/client and a fake Api.

/** A taken perimetry examination with a demo result (the same fixtures as the measurements'). */
function examination(id: string, eye: EyeT, takenAt: string, over: Partial<Examination> = {}): Examination {
  const result = fixture(id, eye, takenAt).result!;
  return {
    id,
    patientId: patient.id,
    type: TestType.Perimetry,
    eye,
    notes: "",
    taken: true,
    appointmentId: "appt-1",
    deviceSn: "VR-A001",
    result: { ...result, measurementId: id },
    config: {
      pattern: Pattern.P24_2,
      strategy: Strategy.DS,
      stimuliUpdate: StimuliUpdate.Ms2000,
      stimuliSize: StimulusSize.III,
      stimuliShowtime: Showtime.Ms200,
      sorsLocations: 36,
      sorsStage: 36,
      playSound: false,
      trackGaze: true,
      audioGuide: true,
    },
    createdAt: takenAt,
    updatedAt: takenAt,
    trashedAt: null,
    ...over,
  };
}

const e1 = examination("e1", Eye.Right, "2025-02-03T09:00:00.000Z");
const e2 = examination("e2", Eye.Right, "2026-01-10T09:00:00.000Z");
const e3 = examination("e3", Eye.Left, "2026-01-10T09:09:00.000Z");

interface Server {
  measurements: Measurement[];
  examinations: Examination[];
  failExaminations?: boolean;
}

function renderPage(path: string, server: Server) {
  const handlers: Record<string, Handler> = {
    checkToken: () => ({ role: "user", username: "appt.user", email: "u@x.org", exp: 4_000_000_000 }),
    "patient.get": () => patient,
    "perimetry.all": () => server.measurements,
    "examination.all": () => {
      if (server.failExaminations) throw new Error("examination/all failed");
      return server.examinations.filter((e) => e.taken && e.type === TestType.Perimetry);
    },
    "examination.update": ({ query, body }: { query: { id: string }; body: { id: string; notes: string } }) => {
      const i = server.examinations.findIndex((e) => e.id === query.id);
      server.examinations[i] = { ...server.examinations[i]!, notes: body.notes };
      return server.examinations[i];
    },
  };
  const { api, calls } = fakeApi(handlers);
  const store = createStore();
  const storage = memoryStorage();
  storage.session.set(StorageKeys.session.accessToken, tokenFor("user"));
  // The appointment variant: the organisation's multi-tests flag, kept in the v2 scheduling key (core/client).
  storage.local.set(StorageKeys.local.schedulingV2, "true");
  const { client } = bindClient(store, { api, socket: idleSocket(), storage, clock: systemClock });
  void client.session.start();
  const router = createMemoryRouter(
    [
      {
        path: "/patient/:patientId",
        element: (
          <ShapeRendererContext.Provider value={DomShapes}>
            <PatientLayout />
          </ShapeRendererContext.Provider>
        ),
        children: [{ path: "perimetry/:perimetryId", element: <PerimetryPage /> }],
      },
      { path: "/home", element: <p>home page</p> },
    ],
    { initialEntries: [path] },
  );
  if (!i18n.locale) i18n.loadAndActivate({ locale: "en", messages: {} });
  const view = render(
    <I18nProvider i18n={i18n}>
      <Provider store={store}>
        <RouterProvider router={router} />
      </Provider>
    </I18nProvider>,
  );
  const writes = () => calls.filter((c) => !["checkToken", "patient.get", "perimetry.all", "examination.all"].includes(c.endpoint));
  return { ...view, router, storage, client, calls, writes };
}

const plotsIn = (el: Element) => [...el.querySelectorAll("figure[data-plot]")].map((f) => f.getAttribute("data-plot"));
const historyIds = () =>
  [...document.querySelectorAll('[data-testid="history-cell"]')].map((c) => c.getAttribute("data-measurement")).sort();
const slopeCount = (eye: number) => document.querySelector(`.slopes li[data-eye="${eye}"]`)!.textContent!;
/** Under a selected result the history is folded (client setting historyExpanded). */
const showHistory = () => fireEvent.click(within(screen.getByTestId("history")).getByRole("button", { name: "Show" }));
const listItem = (id: string) => document.getElementById(`measurement-${id}`)!;

let scrolled: string[] = [];
beforeEach(() => {
  vi.stubGlobal("IntersectionObserver", InViewObserver);
  scrolled = [];
  vi.spyOn(Element.prototype, "scrollIntoView").mockImplementation(function (this: Element) {
    scrolled.push(this.id);
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("the perimetry page in the appointment variant", () => {
  it("shows a perimetry examination's result from /perimetry/{examinationId}?scrollToMeasurement=1, scrolled to", async () => {
    const { client, calls } = renderPage(`/patient/${patient.id}/perimetry/e2?scrollToMeasurement=1`, {
      measurements: [],
      examinations: [e1, e2, e3],
    });
    const display = await screen.findByTestId("result-display");
    expect(client.lanes.variant).toBe("appointments");
    expect(calls.find((c) => c.endpoint === "examination.all")!.input).toEqual({
      query: { patientId: patient.id, examinationType: "perimetry", taken: true },
    });
    expect(display.id).toBe("result-e2");
    expect(within(display).getByRole("heading", { level: 3 }).textContent).toContain("24-2");
    // Every index and plot, as for a measurement; the indices are the page's own analysis of the stored result.
    const analysis = analyseStored(e2.result as Measurement["result"] & object, patient.birthdate)!;
    expect(display.querySelector('tr[data-index="md"] td.num')!.textContent).toBe(analysis.display.meanDefect!.toFixed(2));
    expect(plotsIn(display)).toEqual(
      expect.arrayContaining([
        "octopus.grayscale",
        "octopus.thresholds",
        "octopus.loss",
        "humphrey.totalDeviationProbability",
        "humphrey.patternDeviationProbability",
        "gaze",
      ]),
    );
    // An examination has no display name: the line under the title is its date alone.
    expect(display.querySelector(".result-head p.muted")!.textContent).not.toContain("·");
    // Progression and history count the examinations.
    expect(slopeCount(Eye.Right)).toContain("2 results");
    showHistory();
    expect(historyIds()).toEqual(["e1", "e2", "e3"]);
    // The list marks it, and ?scrollToMeasurement=1 scrolls to it (the list item, then the result).
    expect(listItem("e2").getAttribute("aria-current")).toBe("true");
    await waitFor(() => expect(scrolled).toEqual(["measurement-e2", "result-e2"]));
    expect(screen.queryByText("No perimetry tests yet")).toBeNull();
  });

  it("shows measurements kept from before the switch and examinations as one history; the difference plot compares across them", async () => {
    const m1 = fixture("m1", Eye.Right, "2024-06-01T09:00:00.000Z");
    renderPage(`/patient/${patient.id}/perimetry/e2`, { measurements: [m1], examinations: [e2, e3] });
    const display = await screen.findByTestId("result-display");
    showHistory();
    expect(historyIds()).toEqual(["e2", "e3", "m1"]);
    expect(slopeCount(Eye.Right)).toContain("2 results");
    // The list: newest day first, both kinds.
    const listed = [...document.querySelectorAll('li[id^="measurement-"]')].map((li) => li.id);
    expect(listed).toEqual(["measurement-e3", "measurement-e2", "measurement-m1"]);
    fireEvent.click(within(display).getByRole("button", { name: "Show the detailed analysis" }));
    expect(plotsIn(display)).toContain("octopus.difference");
  });

  it("selects a test by its id: an examination's 'Select' opens its result, and the measurement's still works", async () => {
    const m1 = fixture("m1", Eye.Right, "2024-06-01T09:00:00.000Z");
    const { router } = renderPage(`/patient/${patient.id}/perimetry/all`, { measurements: [m1], examinations: [e1, e2] });
    await screen.findByTestId("history");
    expect(screen.queryByTestId("result-display")).toBeNull();
    expect(historyIds()).toEqual(["e1", "e2", "m1"]);
    fireEvent.click(within(listItem("e1")).getByRole("link", { name: "Select" }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/patient/${patient.id}/perimetry/e1`));
    expect((await screen.findByTestId("result-display")).id).toBe("result-e1");
    expect(listItem("e1").getAttribute("aria-current")).toBe("true");
    fireEvent.click(within(listItem("m1")).getByRole("link", { name: "Select" }));
    await waitFor(() => expect(screen.getByTestId("result-display").id).toBe("result-m1"));
  });

  it("an examination id that is not a result of this patient says so", async () => {
    renderPage(`/patient/${patient.id}/perimetry/e9`, { measurements: [], examinations: [e1] });
    expect(await screen.findByText("This test was not found. It may have been deleted.")).toBeTruthy();
  });

  it("saves an examination's notes with PATCH examination/update (notes-only body), never a measurement call", async () => {
    const { writes } = renderPage(`/patient/${patient.id}/perimetry/e2`, { measurements: [], examinations: [e1, e2] });
    await screen.findByTestId("result-display");
    expect(within(listItem("e2")).queryByText("Has notes")).toBeNull();
    fireEvent.click(within(listItem("e2")).getByRole("button", { name: "Notes" }));
    const dialog = await screen.findByRole("dialog", { name: "Notes" });
    fireEvent.change(within(dialog).getByRole("textbox"), { target: { value: "Fixation unsteady." } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save notes" }));
    expect(await within(dialog).findByText("The notes were saved.")).toBeTruthy();
    expect(writes().map((c) => [c.endpoint, c.input])).toEqual([
      ["examination.update", { query: { id: "e2" }, body: { id: "e2", notes: "Fixation unsteady." } }],
    ]);
    // The examinations are read again: the list shows the notes.
    await waitFor(() => expect(within(listItem("e2")).getByText("Has notes").getAttribute("title")).toBe("Fixation unsteady."));
  });

  it("marks an examination unreliable or baseline in local storage, as a measurement, without a server call", async () => {
    const { storage, writes } = renderPage(`/patient/${patient.id}/perimetry/e2`, { measurements: [], examinations: [e1, e2] });
    const display = await screen.findByTestId("result-display");
    const toggle = (name: string) => within(display).getByRole("switch", { name });
    const local = (key: string) => JSON.parse(storage.local.get(key) ?? "null");
    await act(async () => {
      fireEvent.click(toggle("Baseline"));
    });
    expect(local(StorageKeys.local.baselineResultIds)).toEqual([null, "e2"]);
    await act(async () => {
      fireEvent.click(toggle("Unreliable"));
    });
    expect(local(StorageKeys.local.unreliableResultIds)).toEqual(["e2"]);
    // Unreliable leaves the chart (and clears the baseline mark).
    expect(slopeCount(Eye.Right)).toContain("1 result");
    expect(writes()).toEqual([]);
  });

  it("still shows the measurements, with a warning, when the examinations cannot be loaded", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const m1 = fixture("m1", Eye.Right, "2024-06-01T09:00:00.000Z");
    renderPage(`/patient/${patient.id}/perimetry/m1`, { measurements: [m1], examinations: [e1], failExaminations: true });
    expect((await screen.findByTestId("result-display")).id).toBe("result-m1");
    expect(screen.getByRole("alert").textContent).toBe("Something went wrong. Try again or refresh the browser.");
  });
});
