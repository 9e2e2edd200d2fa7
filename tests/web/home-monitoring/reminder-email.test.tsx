// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { Outlet } from "react-router-dom";

vi.mock("@lingui/core/macro", () => import("../lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("../lingui-shim.tsx"));

import { Eye, Pattern, Strategy } from "../../../core/model/enums.ts";
import type { Patient } from "../../../core/model/patient.ts";
import HomeMonitoringPage from "../../../web/pages/patient/HomeMonitoringPage.tsx";
import { fakeApi, renderRoutes, tokenFor } from "../render-app.tsx";

// The programme's reminder e-mail (issue 31 §3: reminders for missed sessions; the patient record has no e-mail): the
// Lend a headset form asks for it, optional, checks it with core/rules' e-mail rule before sending, sends it trimmed
// or not at all, and the programme's row shows where reminders go.

const patient = { id: "p1", name: "Ada Lovelace", uniqueId: "P-1", gender: 0, lang: "en", birthdate: "1950-01-01" } as unknown as Patient;
const device = { id: "d1", deviceSn: "VR-0009", alias: "Home 9" };
const programme = (reminderEmail: string | null, id: string, deviceSn: string) => ({
  id,
  patientId: "p1",
  deviceSn,
  pattern: Pattern.P24_2,
  strategy: Strategy.DS,
  eyes: [Eye.Right],
  frequency: { kind: "weekly" },
  start: "2026-01-01",
  end: "2026-06-30",
  reminderTime: "18:30",
  timeZone: "UTC",
  reminderEmail,
  standaloneId: `s-${id}`,
  createdBy: "manager",
  createdAt: "2026-01-01T09:00:00.000Z",
  state: "active",
  endedAt: null,
  endedReason: null,
});

function renderTab(handlers: Parameters<typeof fakeApi>[0]) {
  const { api, calls } = fakeApi({ "device.all": () => [device], ...handlers });
  const routes = [
    {
      path: "/patient/:patientId",
      element: <Outlet context={{ patient }} />,
      children: [{ path: "home-monitoring", element: <HomeMonitoringPage /> }],
    },
  ];
  return { ...renderRoutes(routes, "/patient/p1/home-monitoring", api, tokenFor("user")), calls };
}

const openForm = async () => {
  fireEvent.click(await screen.findByRole("button", { name: "Lend a headset" }));
  const form = within(screen.getByRole("form", { name: "Lend a headset" }));
  await waitFor(() => expect(form.getByLabelText(/^Headset/).querySelectorAll("option:not([disabled])")).toHaveLength(1));
  fireEvent.change(form.getByLabelText(/^Headset/), { target: { value: "VR-0009" } });
  return form;
};

afterEach(cleanup);

describe("the programme's reminder e-mail", () => {
  it("is optional: left empty, none is sent", async () => {
    const { calls } = renderTab({ "home.programmes": () => [], "home.programmeCreate": () => programme(null, "h1", "VR-0009") });
    const form = await openForm();
    fireEvent.click(form.getByRole("button", { name: "Lend headset" }));
    await waitFor(() => expect(calls.some((c) => c.endpoint === "home.programmeCreate")).toBe(true));
    expect(calls.find((c) => c.endpoint === "home.programmeCreate")!.input.body).not.toHaveProperty("reminderEmail");
  });

  it("an address that is not one is shown as such and nothing is sent; a valid one is sent trimmed", async () => {
    const { calls } = renderTab({
      "home.programmes": () => [],
      "home.programmeCreate": () => programme("ada@home.example", "h1", "VR-0009"),
    });
    const form = await openForm();
    const field = form.getByLabelText("Reminder e-mail (optional)");
    fireEvent.change(field, { target: { value: "ada at home" } });
    fireEvent.click(form.getByRole("button", { name: "Lend headset" }));
    expect((await form.findByRole("alert")).textContent).toBe("Enter a valid e-mail address.");
    expect(field.getAttribute("aria-invalid")).toBe("true");
    expect(calls.some((c) => c.endpoint === "home.programmeCreate")).toBe(false);
    fireEvent.change(field, { target: { value: " ada@home.example " } });
    fireEvent.click(form.getByRole("button", { name: "Lend headset" }));
    await waitFor(() => expect(calls.some((c) => c.endpoint === "home.programmeCreate")).toBe(true));
    expect(calls.find((c) => c.endpoint === "home.programmeCreate")!.input.body).toMatchObject({ reminderEmail: "ada@home.example" });
  });

  it("the programme's row shows where reminders go, or that there is no address", async () => {
    renderTab({
      "home.programmes": () => [programme("ada@home.example", "h1", "VR-0009"), programme(null, "h2", "VR-0008")],
      "home.adherence": () => ({
        programmeId: "h1",
        patientId: "p1",
        today: "2026-01-20",
        due: 0,
        done: 0,
        missed: 0,
        partial: 0,
        rate: null,
      }),
    });
    const first = within((await screen.findByText("VR-0009")).closest("tr")!);
    expect(first.getByText("Reminders to ada@home.example")).toBeTruthy();
    const second = within(screen.getByText("VR-0008").closest("tr")!);
    expect(second.getByText("No reminder e-mail")).toBeTruthy();
  });
});
