// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, screen, waitFor, within } from "@testing-library/react";
import { Outlet } from "react-router-dom";

vi.mock("@lingui/core/macro", () => import("../lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("../lingui-shim.tsx"));

import { Eye } from "../../../core/model/enums.ts";
import type { Patient } from "../../../core/model/patient.ts";
import OverviewPage from "../../../web/pages/patient/OverviewPage.tsx";
import { fakeApi, renderRoutes, tokenFor } from "../render-app.tsx";
import { acuity, amsler, colour, examination, measurement, patientId } from "./fixtures.ts";

// The patient overview's recent-tests table over a fake Api: measurements and taken examinations of all four types,
// newest first, each with its one-line result and, where it has one, the link to its result page.

const patient = {
  id: patientId,
  name: "Ada Lovelace",
  uniqueId: "P-1",
  gender: 0,
  lang: "en",
  birthdate: "1950-01-01",
} as unknown as Patient;

function renderOverview(handlers: Parameters<typeof fakeApi>[0]) {
  const { api, calls } = fakeApi(handlers);
  const routes = [
    {
      path: "/patient/:patientId",
      element: <Outlet context={{ patient }} />,
      children: [
        { path: "overview", element: <OverviewPage /> },
        { path: "amsler-grid", element: <p>Amsler page</p> },
        { path: "perimetry/:id", element: <p>Perimetry page</p> },
      ],
    },
  ];
  return { ...renderRoutes(routes, `/patient/${patientId}/overview`, api, tokenFor("user")), calls };
}

afterEach(cleanup);

describe("the overview's recent tests", () => {
  it("lists measurements and examinations of every type newest first with their results and links", async () => {
    const { calls, router } = renderOverview({
      "perimetry.all": () => [measurement("m1", "2026-01-05T09:00:00.000Z")],
      "examination.all": () => [
        examination("e-amsler", "amsler", Eye.Left, amsler("2026-02-01T10:00:00.000Z", "wavy")),
        examination("e-acuity", "acuity", Eye.Right, acuity("2026-02-01T10:05:00.000Z", [[Eye.Right, 0.3]])),
        examination("e-colour", "color-blindness", Eye.Binocular, colour("2026-02-01T10:10:00.000Z", 8, "protan")),
      ],
    });
    const table = within(await screen.findByRole("region", { name: "Recent tests" }));
    const rows = table
      .getAllByRole("row")
      .slice(1)
      .map((r) => [...r.querySelectorAll("td")].slice(1).map((c) => c.textContent));
    expect(rows).toEqual([
      ["Colour vision", "Binocular", "8/19 plates correct, red-green deficiency (protan)", ""],
      ["Visual acuity", "Right eye", "logMAR 0.30 (6/12, 20/40)", ""],
      ["Amsler grid", "Left eye", "Abnormal: wavy lines", "Open result"],
      ["Perimetry", "Right eye", "24-2, SORS, MD -3.46 dB", "Open result"],
    ]);
    // Both lists of this patient, the examinations only taken ones.
    expect(calls.find((c) => c.endpoint === "examination.all")?.input).toEqual({ query: { patientId, taken: true } });
    const links = table.getAllByRole("link", { name: "Open result" }).map((a) => a.getAttribute("href"));
    expect(links).toEqual([`/patient/${patientId}/amsler-grid`, `/patient/${patientId}/perimetry/m1?scrollToMeasurement=1`]);
    table.getAllByRole("link", { name: "Open result" })[0]!.click();
    await waitFor(() => expect(router.state.location.pathname).toBe(`/patient/${patientId}/amsler-grid`));
  });

  it("shows the empty state when nothing was taken, and the error when a list cannot load", async () => {
    renderOverview({ "perimetry.all": () => [measurement("m2", null)], "examination.all": () => [] });
    expect(await screen.findByText("No tests yet")).toBeTruthy();
    cleanup();
    renderOverview({ "perimetry.all": () => [], "examination.all": () => Promise.reject(new Error("down")) });
    expect(await screen.findByRole("alert")).toBeTruthy();
  });
});
