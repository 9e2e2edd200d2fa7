import { Outlet } from "react-router-dom";
import { Eye, Pattern, Strategy } from "../../../core/model/enums.ts";
import type { Patient } from "../../../core/model/patient.ts";
import HomeMonitoringPage from "../../../web/pages/patient/HomeMonitoringPage.tsx";
import { fakeApi, renderRoutes, tokenFor } from "../render-app.tsx";

// The patient's Home monitoring tab over a fake Api, as its tests render it: one patient, one free headset, and a
// programme as the server answers it. The test file mocks Lingui's macros before importing this.

export const patient = {
  id: "p1",
  name: "Ada Lovelace",
  uniqueId: "P-1",
  gender: 0,
  lang: "en",
  birthdate: "1950-01-01",
} as unknown as Patient;
export const device = { id: "d1", deviceSn: "VR-0009", alias: "Home 9" };

/** A programme of p1 as home.programmes answers it (weekly 24-2 DS, right eye, no reminder e-mail), with changes. */
export const programme = (over: Record<string, unknown> = {}) => ({
  id: "h1",
  patientId: "p1",
  deviceSn: "VR-0009",
  pattern: Pattern.P24_2,
  strategy: Strategy.DS,
  eyes: [Eye.Right],
  frequency: { kind: "weekly" },
  start: "2026-01-01",
  end: "2026-06-30",
  reminderTime: "18:30",
  timeZone: "UTC",
  reminderEmail: null,
  standaloneId: "s-h1",
  createdBy: "manager",
  createdAt: "2026-01-01T09:00:00.000Z",
  state: "active",
  endedAt: null,
  endedReason: null,
  ...over,
});

/** The tab at /patient/p1/home-monitoring for a user, device.all answering the one headset. */
export function renderTab(handlers: Parameters<typeof fakeApi>[0]) {
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
