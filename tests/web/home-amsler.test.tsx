// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, screen, within } from "@testing-library/react";

vi.mock("@lingui/core/macro", () => import("./lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("./lingui-shim.tsx"));

import { Eye } from "../../core/model/enums.ts";
import type { Organisation } from "../../core/model/organisation.ts";
import HomePage from "../../web/pages/home/HomePage.tsx";
import { amslerVisits } from "../../web/pages/patient/amsler-groups.ts";
import { device, examination, measurement, patient, result } from "../client/fixtures.ts";
import { fakeApi, renderRoutes, tokenFor } from "./render-app.tsx";

afterEach(cleanup);

const organisation = (multiTests: boolean): Organisation => ({ id: "o1", name: "Clinic", multiTests, market: "FDA", country: "US" });
const amslerResult = (takenAt: string) => ({ answer: "healthy" as const, takenAt, deviceSn: "SN1", appointmentId: "a1" });

/** The rows of one home list: each row's tests as the list writes them ("Perimetry · Right eye"). */
const rowTests = (list: string) =>
  within(screen.getByRole("region", { name: list }))
    .getAllByRole("link")
    .map((row) =>
      within(row)
        .getAllByTestId("home-test")
        .map((t) => t.textContent),
    );

describe("home lists name the eye (issue 21: a patient's two eyes read as identical rows)", () => {
  it("measurement variant: the pair of eyes queued on a lane and the results are told apart by their eye", async () => {
    const right = measurement("m-r", { patientId: "p1", eye: Eye.Right });
    const left = measurement("m-l", { patientId: "p1", eye: Eye.Left, isFollowingEye: "m-r" });
    const done = (id: string, eye: Eye, takenAt: string) =>
      measurement(id, { patientId: "p1", eye, deviceSn: null, result: { ...result(id, "p1"), eye, takenAt } });
    const { api } = fakeApi({
      checkToken: () => ({ role: "user", username: "user", email: "u@x.org", exp: 4_000_000_000 }),
      "organisation.current": () => organisation(false),
      "patient.all": () => [patient("p1", { name: "Ana Ruiz" })],
      "device.all": () => [device("SN1", { perimetries: [right, left] })],
      "examination.all": () => [],
      "perimetry.recent": () => [done("d-r", Eye.Right, "2026-11-02T10:00:00.000Z"), done("d-l", Eye.Left, "2026-11-02T10:10:00.000Z")],
    });
    renderRoutes([{ path: "/home", element: <HomePage /> }], "/home", api, tokenFor("user"));
    await screen.findAllByText("Ana Ruiz");
    await vi.waitFor(() => expect(rowTests("Recent tests")).toHaveLength(2));
    expect(rowTests("Recent tests")).toEqual([["Perimetry · Left eye"], ["Perimetry · Right eye"]]);
    expect(rowTests("Scheduled tests").flat().sort()).toEqual(["Perimetry · Left eye", "Perimetry · Right eye"]);
  });

  it("appointment variant: each examination of an appointment with its eye", async () => {
    const { api } = fakeApi({
      checkToken: () => ({ role: "user", username: "user", email: "u@x.org", exp: 4_000_000_000 }),
      "organisation.current": () => organisation(true),
      "patient.all": () => [patient("p1", { name: "Ana Ruiz" })],
      "device.all": () => [],
      "examination.all": () => [
        examination("e1", { type: "perimetry", eye: Eye.Right, appointmentId: "a1" }),
        examination("e2", { type: "amsler", eye: Eye.Left, appointmentId: "a1" }),
        examination("e3", { type: "acuity", eye: Eye.Both, appointmentId: "a2" }),
      ],
    });
    renderRoutes([{ path: "/home", element: <HomePage /> }], "/home", api, tokenFor("user"));
    await vi.waitFor(() => expect(rowTests("Scheduled tests")).toHaveLength(2));
    expect(rowTests("Scheduled tests").sort()).toEqual([
      ["Perimetry · Right eye", "Amsler grid · Left eye"],
      ["Visual acuity · Both eyes"],
    ]);
  });
});

describe("Amsler page groups", () => {
  it("lists results only: a queued examination (result null, 'Scheduled examination', accounts seed §4) is not a result", () => {
    const list = [
      examination("queued", { appointmentId: "a2", eye: Eye.Right, createdAt: "2026-11-05T10:00:00.000Z" }),
      examination("r", { appointmentId: "a1", eye: Eye.Right, taken: true, result: amslerResult("2026-11-01T10:00:00.000Z") }),
      examination("l", { appointmentId: "a1", eye: Eye.Left }),
    ];
    const visits = amslerVisits(list);
    expect(visits.map((v) => [v.key, v.at, v.right.map((e) => e.id), v.left.map((e) => e.id)])).toEqual([
      ["a1", "2026-11-01T10:00:00.000Z", ["r"], []],
    ]);
    expect(amslerVisits([list[0]!])).toEqual([]);
  });
});
