// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";

vi.mock("@lingui/core/macro", () => import("../lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("../lingui-shim.tsx"));

import type { Appointment } from "../../../core/model/appointment.ts";
import { ApiError } from "../../../core/model/contract/errors.ts";
import { fakeApi } from "../render-app.tsx";
import { device, measurement, patient } from "./fixtures.ts";
import { renderTechnician } from "./render.tsx";

// Trash of queued measurements and appointments from the technician view: "Delete and move actions need
// confirmation" (both seeds §5); "Trashing a measurement notifies with a link to the bin; trashing an appointment
// notifies 'Appointment trashed' with an action to view it" (scheduling seed §4); failures "There was a problem
// deleting the measurement." / "Please try again." and "Failed to trash appointment" (§8).

afterEach(cleanup);

const at = "2026-01-01T10:00:00.000Z";
const appointment: Appointment = {
  id: "A1",
  patientId: "p1",
  deviceSn: "SN1",
  audioGuide: true,
  tutorial: false,
  trackGaze: true,
  standaloneId: null,
  createdAt: at,
  updatedAt: at,
  trashedAt: null,
  examinations: [
    {
      id: "e1",
      patientId: "p1",
      type: "amsler",
      eye: 0,
      notes: "",
      taken: false,
      appointmentId: "A1",
      deviceSn: "SN1",
      result: null,
      config: null,
      createdAt: at,
      updatedAt: at,
      trashedAt: null,
    },
  ],
};
const failing = () => {
  throw new ApiError({ status: 500, responseType: "server_error", message: "down" });
};

describe("moving a queued measurement to the bin", () => {
  it("asks first, naming the patient, test and headset; Cancel sends nothing; confirming trashes it and links to the bin", async () => {
    const { api, calls } = fakeApi({
      "device.all": () => [device(1, [measurement("a")])],
      "patient.get": () => patient("p1", "Ada Lovelace"),
      "perimetry.trash": () => null,
    });
    const { router } = renderTechnician(api);
    const lane = await screen.findByTestId("lane");
    fireEvent.click(within(lane).getByRole("button", { name: "Move Test a to the bin" }));
    let dialog = screen.getByRole("alertdialog", { name: "Move this measurement to the bin?" });
    await waitFor(() => expect(within(dialog).getByTestId("test-subject").textContent).toContain("Ada Lovelace · U-p1"));
    expect(within(dialog).getByTestId("test-subject").textContent).toContain("Room 1");
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(calls.some((c) => c.endpoint === "perimetry.trash")).toBe(false);

    fireEvent.click(within(lane).getByRole("button", { name: "Move Test a to the bin" }));
    dialog = screen.getByRole("alertdialog", { name: "Move this measurement to the bin?" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Move to bin" }));
    await screen.findByText("The measurement was moved to the bin.");
    expect(calls.find((c) => c.endpoint === "perimetry.trash")!.input).toEqual({ query: { id: "a" } });
    fireEvent.click(screen.getByRole("button", { name: "Open the bin" }));
    expect(router.state.location.pathname).toBe("/bin/deleted-measurements");
  });

  it("says 'There was a problem deleting the measurement.' / 'Please try again.' when the server fails", async () => {
    const { api } = fakeApi({ "device.all": () => [device(1, [measurement("a")])], "perimetry.trash": failing });
    renderTechnician(api);
    fireEvent.click(await screen.findByRole("button", { name: "Move Test a to the bin" }));
    fireEvent.click(screen.getByRole("button", { name: "Move to bin" }));
    expect(await screen.findByText("There was a problem deleting the measurement. Please try again.")).toBeTruthy();
  });
});

describe("moving a queued appointment to the bin (appointment variant)", () => {
  it("from its card: asks first, trashes it, 'Appointment trashed' with an action to view it in the bin", async () => {
    const { api, calls } = fakeApi({
      "device.all": () => [device(1, [], { appointments: [appointment] })],
      "patient.get": () => patient("p1", "Ada Lovelace"),
      "appointment.trash": () => null,
    });
    const { router } = renderTechnician(api, { appointments: true });
    fireEvent.click(await screen.findByRole("button", { name: "Move the appointment to the bin" }));
    const dialog = screen.getByRole("alertdialog", { name: "Move this appointment to the bin?" });
    await waitFor(() => expect(within(dialog).getByTestId("test-subject").textContent).toContain("Ada Lovelace · U-p1"));
    fireEvent.click(within(dialog).getByRole("button", { name: "Move to bin" }));
    await screen.findByText("The appointment was moved to the bin.");
    expect(calls.find((c) => c.endpoint === "appointment.trash")!.input).toEqual({ query: { id: "A1" } });
    fireEvent.click(screen.getByRole("button", { name: "View" }));
    expect(router.state.location.pathname).toBe("/bin/deleted-appointments");
  });

  it("Escape closes the side panel; with a dialog open over it, Escape closes the dialog only", async () => {
    const { api } = fakeApi({ "device.all": () => [device(1, [], { appointments: [appointment] })], "examination.all": () => [] });
    renderTechnician(api, { appointments: true });
    const lane = await screen.findByTestId("lane");
    fireEvent.click(lane.querySelector(".acard")!);
    fireEvent.click(within(screen.getByTestId("appointment-panel")).getByRole("button", { name: "Move appointment to bin" }));
    fireEvent.keyDown(document, { key: "Escape" });
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(screen.getByTestId("appointment-panel")).toBeTruthy();
    fireEvent.keyDown(document, { key: "Escape" });
    expect(screen.queryByTestId("appointment-panel")).toBeNull();
  });

  it("from its side panel; a failure says 'Failed to trash appointment'", async () => {
    const { api } = fakeApi({
      "device.all": () => [device(1, [], { appointments: [appointment] })],
      "appointment.trash": failing,
      "examination.all": () => [],
    });
    renderTechnician(api, { appointments: true });
    const lane = await screen.findByTestId("lane");
    fireEvent.click(lane.querySelector(".acard")!);
    fireEvent.click(within(screen.getByTestId("appointment-panel")).getByRole("button", { name: "Move appointment to bin" }));
    fireEvent.click(screen.getByRole("button", { name: "Move to bin" }));
    expect(await screen.findByText("Failed to trash appointment")).toBeTruthy();
  });
});
