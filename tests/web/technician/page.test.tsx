// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";

vi.mock("@lingui/core/macro", () => import("../lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("../lingui-shim.tsx"));

import { ConnectionStatus, DeviceStatus } from "../../../core/model/enums.ts";
import { CARD_BLINK_MS } from "../../../web/pages/technician/TechnicianPage.tsx";
import { notificationsAtom } from "../../../web/ui/notifications.ts";
import { fakeApi } from "../render-app.tsx";
import { device, measurement, patient } from "./fixtures.ts";
import { fakeSocket, renderTechnician } from "./render.tsx";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const laneNames = () => screen.getAllByTestId("lane").map((l) => l.getAttribute("data-device-sn"));

describe("technician view states (scheduling seed §2 'States of the list: loading tiles, error, empty (title and hint), list')", () => {
  it("shows loading tiles, then one lane per device with its cards", async () => {
    let answer!: (v: unknown) => void;
    const { api } = fakeApi({
      "device.all": () =>
        new Promise((r) => {
          answer = r;
        }),
    });
    renderTechnician(api);
    expect(screen.getByRole("status", { busy: true })).toBeTruthy();
    await act(async () => answer([device(1, [measurement("a"), measurement("b")]), device(2)]));
    expect(laneNames()).toEqual(["SN1", "SN2"]);
    expect(screen.getByText("Test a")).toBeTruthy();
    expect(screen.getByText("No measurements queued. Use + to add one, or drag a card here.")).toBeTruthy();
  });

  it("names the patient (name and ID) on every card, whatever its display name says", async () => {
    const { api, calls } = fakeApi({
      "device.all": () => [
        device(1, [
          measurement("a", { displayName: "Follow-up", patientId: "p1" }),
          measurement("b", { patientId: "p2" }),
          measurement("c", { patientId: "p1" }),
        ]),
      ],
      "patient.get": ({ query }: { query: { id: string } }) => patient(query.id, query.id === "p1" ? "Ada Lovelace" : "Alan Turing"),
    });
    renderTechnician(api);
    const lane = await screen.findByTestId("lane");
    await waitFor(() =>
      expect(
        within(lane)
          .getAllByTestId("patient-name")
          .map((e) => e.textContent),
      ).toEqual(["Ada Lovelace · U-p1", "Alan Turing · U-p2", "Ada Lovelace · U-p1"]),
    );
    // One request per patient, however many cards show them.
    expect(
      calls
        .filter((c) => c.endpoint === "patient.get")
        .map((c) => c.input.query.id)
        .sort(),
    ).toEqual(["p1", "p2"]);
  });

  it("shows the error state with a retry", async () => {
    let fail = true;
    const { api } = fakeApi({
      "device.all": () => {
        if (fail) throw new Error("down");
        return [device(1)];
      },
    });
    renderTechnician(api);
    await screen.findByText("The devices could not be loaded. Try again or refresh the browser.");
    fail = false;
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(laneNames()).toEqual(["SN1"]));
  });

  it("shows the empty state with a title and a hint", async () => {
    const { api } = fakeApi({ "device.all": () => [] });
    renderTechnician(api);
    await screen.findByText("No devices yet");
    expect(screen.getByText(/appears here as soon as it is registered/)).toBeTruthy();
  });
});

describe("pinned lanes ('pinned devices come first (pins are stored locally in the browser)')", () => {
  it("orders pinned lanes first and stores a new pin", async () => {
    const { api } = fakeApi({ "device.all": () => [device(1), device(2), device(3)] });
    const { storage } = renderTechnician(api, { pins: ["SN3"] });
    await waitFor(() => expect(laneNames()).toEqual(["SN3", "SN1", "SN2"]));
    fireEvent.click(screen.getByRole("button", { name: "Pin Room 2" }));
    // Pinned lanes keep the device order among themselves (core/scheduling orderPinnedFirst is stable); the list
    // follows the client on the next animation frame.
    await waitFor(() => expect(laneNames()).toEqual(["SN2", "SN3", "SN1"]));
    expect(JSON.parse(storage.local.get("pinnedSwimlanes")!)).toEqual(["SN3", "SN2"]);
    fireEvent.click(screen.getByRole("button", { name: "Unpin Room 3" }));
    await waitFor(() => expect(laneNames()).toEqual(["SN2", "SN1", "SN3"]));
  });
});

describe("?scrollTo={deviceSn}/{id}", () => {
  it("'scrolls to the device card and makes it blink for 1.5 s, then the route returns to /technician'", async () => {
    const scrolled: string[] = [];
    (HTMLElement.prototype as { scrollIntoView?: unknown }).scrollIntoView = function (this: HTMLElement) {
      scrolled.push(this.id);
    };
    const { api } = fakeApi({ "device.all": () => [device(1, [measurement("a"), measurement("b")])] });
    const { router } = renderTechnician(api, { path: "/technician?scrollTo=SN1/b" });
    await waitFor(() => expect(document.getElementById("card-b")!.className).toContain("mcard-blink"));
    expect(scrolled).toContain("card-b");
    expect(document.getElementById("card-a")!.className).not.toContain("mcard-blink");
    expect(CARD_BLINK_MS).toBe(1500);
    await waitFor(() => expect(router.state.location.search).toBe(""), { timeout: 3000 });
    expect(router.state.location.pathname).toBe("/technician");
    expect(document.getElementById("card-b")!.className).not.toContain("mcard-blink");
  });
});

describe("live events", () => {
  it("a status event moves the controls; progress shows the live panel; 'measurement ready' for 10 s opens the result", async () => {
    const socket = fakeSocket();
    const { api } = fakeApi({
      "device.all": () => [device(1, [measurement("a"), measurement("b")])],
      "patient.get": () => patient("p1", "Ada Lovelace"),
    });
    const { router, store } = renderTechnician(api, { socket });
    await waitFor(() => expect(laneNames()).toEqual(["SN1"]));
    const lane = screen.getByTestId("lane");
    expect(within(lane).getByRole("button", { name: "Start" })).toBeTruthy();

    act(() => socket.emit({ type: "device", operation: "update", data: { deviceSn: "SN1", status: DeviceStatus.Playing } }));
    expect(within(lane).getByRole("button", { name: "Pause" })).toBeTruthy();
    expect(within(lane).queryByRole("button", { name: "Start" })).toBeNull();

    act(() =>
      socket.emit({
        type: "measurement",
        operation: "measurement_progress",
        data: {
          deviceSn: "SN1",
          perimetryId: "a",
          appointmentId: null,
          nTested: 13,
          nLocations: 54,
          gazeTracking: true,
          thresholds: [
            { index: 0, dBValue: 28, answerTime: 420 },
            { index: 1, dBValue: null, answerTime: null },
          ],
          lastUpdatedIndex: 1,
        },
      }),
    );
    const panel = within(lane).getByTestId("live-panel");
    expect(within(panel).getByRole("heading", { name: "Live measurement" })).toBeTruthy();
    // The live panel names whose test runs and where.
    expect(within(panel).getByTestId("patient-name").textContent).toBe("Ada Lovelace · U-p1");
    expect(within(panel).getByText("Test a · Right eye · 24-2 · Room 1")).toBeTruthy();
    expect(within(panel).getByText("Answered")).toBeTruthy();
    expect(within(panel).getByText("Not answered")).toBeTruthy();
    expect(within(panel).getByText("Presented")).toBeTruthy();
    expect(within(panel).getByRole("progressbar").getAttribute("aria-valuenow")).toBe("24");
    // The running card shows the live ratio and cannot be dragged.
    expect(within(lane).getByLabelText("13 of 54 locations tested", { selector: "span" })).toBeTruthy();

    act(() =>
      socket.emit({
        type: "measurement",
        operation: "measurement_result_ready",
        data: { ...measurement("a", { deviceSn: "SN1" }), result: null },
      }),
    );
    expect(document.getElementById("card-a")).toBeNull();
    // "measurement ready" names the patient, the test and the room.
    const notice = await screen.findByText("measurement ready: Ada Lovelace (U-p1) · Test a · Room 1");
    expect(notice).toBeTruthy();
    expect(store.get(notificationsAtom).map((n) => [n.text, n.kind, n.durationMs])).toEqual([
      ["measurement ready: Ada Lovelace (U-p1) · Test a · Room 1", "success", 10_000],
    ]);
    fireEvent.click(screen.getByRole("button", { name: "Open result" }));
    expect(router.state.location.pathname).toBe("/patient/p1/perimetry/a");
  });

  it("a disconnection event shows the lane disconnected", async () => {
    const socket = fakeSocket();
    const { api } = fakeApi({ "device.all": () => [device(1)] });
    renderTechnician(api, { socket });
    await waitFor(() => expect(screen.getByTestId("connection").textContent).toContain("Connected"));
    act(() =>
      socket.emit({ type: "connection", operation: "update", data: { deviceSn: "SN1", connection: ConnectionStatus.Disconnected } }),
    );
    expect(screen.getByTestId("connection").textContent).toContain("Disconnected");
  });
});
