// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";

vi.mock("@lingui/core/macro", () => import("./lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("./lingui-shim.tsx"));

import { Eye, Pattern, Strategy } from "../../../core/model/enums.ts";
import type { Measurement } from "../../../core/model/measurement.ts";
import type { ImportedSource } from "../../../core/model/result-source.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { printProgression } from "../../../core/plots/print-header.ts";
import { PrintLayout } from "../../../web/results/PrintLayout.tsx";
import { analyseStored, fromMeasurement, seriesResults, type WithResult } from "../../../web/results/result-model.ts";
import { fixture, InViewObserver, patient, renderResults } from "./fixtures.tsx";

// Issue 29 §2 "Series across devices" and §1's device indices, on the result side of the perimetry page: the results
// list names each result's source, an imported result shows the device's own analysis beside Isopter's, and the
// progression chart marks each change of device or strategy, lists it in words and limits the series to one device.

const hfa = (over: Partial<ImportedSource> = {}): ImportedSource => ({
  kind: "imported",
  format: "dicom-opv",
  key: "1.2.826.0.1.3680043.8.498.1",
  manufacturer: "Carl Zeiss Meditec",
  model: "HFA3 860",
  serial: "860-12345",
  software: "1.5.3",
  patternName: "Visual Field 24-2 Test Pattern",
  strategyName: "SITA Standard",
  deviceIndices: {
    normsName: "HFA SITA Standard norms 2.0",
    md: -4.31,
    mdProbability: 2,
    psd: 5.12,
    psdProbability: 0.5,
    vfi: 88,
    ght: "Outside normal limits",
    td: null,
    tdProbability: null,
    pd: null,
    pdProbability: null,
  },
  accessionNumber: null,
  requestedProcedureId: null,
  fileName: "hfa.dcm",
  importedAt: "2026-05-01T10:00:00.000Z",
  ...over,
});

/** A demo 24-2 result as the import stores a Humphrey file's: no Isopter strategy, no alias, the file's source. */
function imported(m: Measurement, source: ImportedSource = hfa({ key: m.id })): Measurement {
  return { ...m, result: { ...m.result!, strategy: Strategy.Undefined, deviceAlias: null, source } };
}

const hfa1 = imported(fixture("h1", Eye.Right, "2021-03-01T09:00:00.000Z"));
const hfa2 = imported(fixture("h2", Eye.Right, "2022-03-01T09:00:00.000Z"));
const hfa3 = imported(fixture("h3", Eye.Right, "2023-03-01T09:00:00.000Z"));
const own1 = fixture("i1", Eye.Right, "2024-03-01T09:00:00.000Z");
const own2 = fixture("i2", Eye.Right, "2025-03-01T09:00:00.000Z");
const own3 = fixture("i3", Eye.Right, "2026-03-01T09:00:00.000Z");
const series = [hfa1, hfa2, hfa3, own1, own2, own3];

const slopeCount = (eye: number) => document.querySelector(`.slopes li[data-eye="${eye}"]`)!.textContent!;
const analysed = () => document.querySelector("[data-testid=progression-analysis] [data-eye='0'] [data-fact=used]")!.textContent!;
const chartTexts = () => document.querySelector("figure[data-plot=progression] [data-testid=shapes]")!.textContent!.split("|");

beforeEach(() => {
  vi.stubGlobal("IntersectionObserver", InViewObserver);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the results list names each result's source", () => {
  it("an Isopter headset with its alias, or imported with the perimeter's manufacturer and model; the file's strategy", async () => {
    renderResults(series, "all");
    const cells = await screen.findAllByTestId("history-cell");
    const byId = (id: string) => cells.find((c) => c.getAttribute("data-measurement") === id)!;
    expect(within(byId("i1")).getByTestId("history-source").textContent).toBe("Isopter headset (Room 1)");
    expect(within(byId("h1")).getByTestId("history-source").textContent).toBe("Imported: Carl Zeiss Meditec HFA3 860");
    // The strategy as the file names it, never "Undefined".
    expect(byId("h1").querySelector(".history-meta a")!.textContent).toMatch(/ · 24-2 · SITA Standard$/);
    expect(byId("i1").querySelector(".history-meta a")!.textContent).toMatch(/ · 24-2 · Dynamic$/);
    expect(document.body.textContent).not.toContain("Undefined");
  });
});

describe("an imported result shows the device's own analysis beside Isopter's", () => {
  it("captioned with the perimeter and its norms; MD and PSD with the file's p, VFI and GHT as given", () => {
    renderResults(series, "h3");
    const display = screen.getByTestId("result-display");
    expect(within(display).getByTestId("result-source").textContent).toBe("Imported: Carl Zeiss Meditec HFA3 860");
    expect(display.querySelector("h3")!.textContent).toMatch(/ · 24-2 · SITA Standard$/);
    const device = within(display).getByTestId("indices-device");
    expect(device.querySelector("caption")!.textContent).toBe(
      "Device's own analysis (Carl Zeiss Meditec HFA3 860)Its normative data: HFA SITA Standard norms 2.0",
    );
    const row = (key: string) => [...device.querySelectorAll(`tr[data-index="${key}"] td`)].map((td) => td.textContent);
    expect(row("deviceMd")).toEqual(["-4.31", "dB", "p < 2 %"]);
    expect(row("devicePsd")).toEqual(["5.12", "dB", "p < 0.5 %"]);
    expect(row("deviceVfi")).toEqual(["88", "%", ""]);
    expect(row("deviceGht")).toEqual(["Outside normal limits", "", ""]);
    // Isopter's own indices, captioned as Isopter's, with its own values (its normals exist for 24-2).
    const own = within(display).getByTestId("indices-field");
    expect(own.querySelector("caption")!.textContent).toBe("Isopter's own analysis");
    expect(own.querySelector('tr[data-index="hmd"] td.num')!.textContent).not.toBe("-4.31");
    expect(own.querySelector('tr[data-index="hmd"] td.num')!.textContent).toMatch(/^-?\d+\.\d\d$/);
    // The device row names the perimeter and its serial number; the normative database row says whose it is.
    const conduct = within(display).getByTestId("indices-conduct");
    expect(conduct.querySelector('tr[data-index="device"]')!.textContent).toContain("Imported: Carl Zeiss Meditec HFA3 860");
    expect(conduct.querySelector('tr[data-index="device"]')!.textContent).toContain("Serial number 860-12345");
    expect(conduct.querySelector('tr[data-index="normative"] th')!.textContent).toContain("Isopter's normative database");
  });

  it("where Isopter has no normals for the pattern it says so; a file without indices says that", () => {
    const g = fixture("hg", Eye.Right, "2023-05-01T09:00:00.000Z", Pattern.P30_2);
    const noNormals = imported({ ...g, result: { ...g.result!, normativeVersion: null } }, hfa({ key: "hg", deviceIndices: null }));
    renderResults([noNormals], "hg");
    const own = screen.getByTestId("indices-field");
    expect(own.querySelector("caption")!.textContent).toBe("Isopter's own analysisIsopter has no normals for this pattern");
    expect(screen.getByTestId("indices-device").textContent).toBe(
      "Device's own analysis (Carl Zeiss Meditec HFA3 860): the file carries no indices.",
    );
  });

  it("an Isopter result has no device block and keeps its captions", () => {
    renderResults(series, "i3");
    expect(screen.queryByTestId("indices-device")).toBeNull();
    expect(screen.getByTestId("indices-field").querySelector("caption")!.textContent).toBe("Indices");
    expect(screen.getByTestId("result-source").textContent).toBe("Isopter headset (Room 1)");
  });
});

describe("the progression chart across devices", () => {
  it("marks the change on the chart, lists it in words, and pools the series in the analysis", () => {
    renderResults(series, "all");
    expect(slopeCount(Eye.Right)).toContain("6 results");
    expect(chartTexts()).toContain("Isopter headset · Dynamic");
    const changes = screen.getByTestId("series-changes");
    const items = [...changes.querySelectorAll("li")];
    expect(items.map((li) => li.getAttribute("data-id"))).toEqual(["i1"]);
    expect(items[0]!.textContent).toMatch(/2024, Right eye: Carl Zeiss Meditec HFA3 860 · SITA Standard → Isopter headset · Dynamic$/);
    expect(analysed()).toContain("6 results analysed");
    const change = document.querySelector("[data-testid=progression-analysis] [data-eye='0'] [data-fact=changes] li")!;
    expect(change.getAttribute("data-id")).toBe("i1");
  });

  it("limits the series to one device: the chart, the marker, the slope and the analysis follow; all brings them back", () => {
    renderResults(series, "all");
    const devices = screen.getByTestId("series-device");
    expect(
      within(devices)
        .getAllByRole("button")
        .map((b) => b.textContent),
    ).toEqual(["all", "Isopter headset", "Carl Zeiss Meditec HFA3 860"]);
    fireEvent.click(within(devices).getByRole("button", { name: "Carl Zeiss Meditec HFA3 860" }));
    expect(within(devices).getByRole("button", { name: "Carl Zeiss Meditec HFA3 860" }).getAttribute("aria-pressed")).toBe("true");
    expect(slopeCount(Eye.Right)).toContain("3 results");
    expect(screen.queryByTestId("series-changes")).toBeNull();
    expect(chartTexts().some((t) => t.includes(" · "))).toBe(false);
    expect(analysed()).toContain("3 results analysed");
    expect(analysed()).toContain("only SITA Standard threshold results are pooled");
    fireEvent.click(within(devices).getByRole("button", { name: "Isopter headset" }));
    expect(slopeCount(Eye.Right)).toContain("3 results");
    expect(analysed()).toContain("only Dynamic threshold results are pooled");
    fireEvent.click(within(devices).getByRole("button", { name: "all" }));
    expect(slopeCount(Eye.Right)).toContain("6 results");
    expect(screen.getByTestId("series-changes")).toBeTruthy();
  });

  it("one device and one strategy: no control, no marker", () => {
    renderResults([own1, own2, own3], "all");
    expect(screen.queryByTestId("series-device")).toBeNull();
    expect(screen.queryByTestId("series-strategy")).toBeNull();
    expect(screen.queryByTestId("series-changes")).toBeNull();
  });
});

describe("the printed page of an imported result", () => {
  it("names the perimeter and the file's strategy, and the series it analysed with its change of device", () => {
    const m = fromMeasurement(hfa3) as WithResult;
    const sr = seriesResults(
      series.map((x) => fromMeasurement(x) as WithResult),
      new Set(),
      patient.birthdate,
    );
    const later = fromMeasurement(own3) as WithResult;
    render(
      <I18nProvider i18n={i18n}>
        <PrintLayout
          measurement={later}
          analysis={analyseStored(later.result, patient.birthdate)!}
          reference={null}
          patient={patient}
          progression={printProgression(sr, later.result, null, "UTC")}
        />
      </I18nProvider>,
    );
    const texts = () => [...document.querySelectorAll("[data-testid=print-plots] svg text")].map((t) => t.textContent);
    expect(texts()).toContain("Series");
    expect(texts()).toContain("all devices and strategies · device or strategy changed on 2024-03-01, last to Isopter headset · Dynamic");
    cleanup();
    render(
      <I18nProvider i18n={i18n}>
        <PrintLayout
          measurement={m}
          analysis={analyseStored(m.result, patient.birthdate)!}
          reference={null}
          patient={patient}
          progression={printProgression(sr, m.result, null, "UTC")}
        />
      </I18nProvider>,
    );
    expect(texts()).toEqual(expect.arrayContaining(["imported: Carl Zeiss Meditec HFA3 860", "SITA Standard"]));
    // Up to this result the series is the perimeter's alone: one device, one strategy, no series line.
    expect(texts()).not.toContain("Series");
  });
});
