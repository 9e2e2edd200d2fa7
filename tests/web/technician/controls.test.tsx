// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";

vi.mock("@lingui/core/macro", () => import("../lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("../lingui-shim.tsx"));

import { ConnectionStatus, DeviceStatus } from "../../../core/model/enums.ts";
import { ALIAS_ERROR_MS } from "../../../core/client/devices-facet.ts";
import { measurementFormAtom } from "../../../web/state/technician.ts";
import { fakeApi } from "../render-app.tsx";
import { device, measurement, patient } from "./fixtures.ts";
import { fakeSocket, renderTechnician } from "./render.tsx";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const status = (deviceSn: string, s: DeviceStatus) => ({
  type: "device" as const,
  operation: "update" as const,
  data: { deviceSn, status: s },
});

async function lane(statusNow: DeviceStatus, handlers: Record<string, (input: any) => unknown> = {}, over = {}) {
  const socket = fakeSocket();
  const fake = fakeApi({ "device.all": () => [device(1, [measurement("a")], { status: statusNow, ...over })], ...handlers });
  const rendered = renderTechnician(fake.api, { socket });
  const el = await screen.findByTestId("lane");
  return { ...rendered, ...fake, socket, lane: el };
}

describe("controls (scheduling seed §4 'Controls')", () => {
  it("'Stop is disabled in standby, stopped or not connected.'", async () => {
    const { lane: l, socket } = await lane(DeviceStatus.Standby);
    expect(within(l).getByRole<HTMLButtonElement>("button", { name: "Stop" }).disabled).toBe(true);
    act(() => socket.emit(status("SN1", DeviceStatus.Stopped)));
    expect(within(l).getByRole<HTMLButtonElement>("button", { name: "Stop" }).disabled).toBe(true);
    act(() => socket.emit(status("SN1", DeviceStatus.NotConnected)));
    expect(within(l).getByRole<HTMLButtonElement>("button", { name: "Stop" }).disabled).toBe(true);
    // Back on the network: its status, then a heartbeat ("A heartbeat marks a device connected").
    act(() => socket.emit(status("SN1", DeviceStatus.Playing)));
    act(() => socket.emit({ type: "connection", operation: "update", data: { deviceSn: "SN1", connection: ConnectionStatus.Connected } }));
    expect(within(l).getByRole<HTMLButtonElement>("button", { name: "Stop" }).disabled).toBe(false);
  });

  it("a headset that stopped beating ('No heartbeat for 4 s marks it disconnected') keeps its status but takes no command", async () => {
    const { lane: l, socket } = await lane(DeviceStatus.Playing, {}, { connection: ConnectionStatus.Connected });
    const enabled = () =>
      within(l)
        .getAllByRole<HTMLButtonElement>("button")
        .filter((b) => ["Pause", "Stop"].includes(b.textContent ?? ""))
        .map((b) => !b.disabled);
    expect(enabled()).toEqual([true, true]);
    act(() =>
      socket.emit({ type: "connection", operation: "update", data: { deviceSn: "SN1", connection: ConnectionStatus.Disconnected } }),
    );
    expect(within(l).getByTestId("connection").textContent).toBe("Disconnected");
    expect(enabled()).toEqual([false, false]);
    act(() => socket.emit({ type: "connection", operation: "update", data: { deviceSn: "SN1", connection: ConnectionStatus.Connected } }));
    expect(enabled()).toEqual([true, true]);
  });

  it("'a pause button shows, disabled during preparation. Otherwise start shows, or resume when paused.'", async () => {
    const { lane: l, socket } = await lane(DeviceStatus.Countdown);
    expect(within(l).getByRole<HTMLButtonElement>("button", { name: "Pause" }).disabled).toBe(true);
    act(() => socket.emit(status("SN1", DeviceStatus.Playing)));
    expect(within(l).getByRole<HTMLButtonElement>("button", { name: "Pause" }).disabled).toBe(false);
    act(() => socket.emit(status("SN1", DeviceStatus.Paused)));
    expect(within(l).getByRole("button", { name: "Resume" })).toBeTruthy();
    act(() => socket.emit(status("SN1", DeviceStatus.Finished)));
    expect(within(l).getByRole("button", { name: "Start" })).toBeTruthy();
  });

  it("confirms with one text per wanted status, sends it, shows 'command sent' and resets when the status changes", async () => {
    let release!: () => void;
    const {
      lane: l,
      socket,
      calls,
    } = await lane(DeviceStatus.Playing, {
      "device.update": () =>
        new Promise((r) => {
          release = () => r(device(1));
        }),
    });
    fireEvent.click(within(l).getByRole("button", { name: "Pause" }));
    expect(screen.getByRole("alertdialog", { name: "Pause the test?" })).toBeTruthy();
    fireEvent.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Pause" }));
    expect(screen.getByText("command sent")).toBeTruthy();
    expect(calls.find((c) => c.endpoint === "device.update")!.input).toEqual({ query: { id: "d1" }, body: { status: "paused" } });
    await act(async () => release());
    expect(screen.getByText("command sent")).toBeTruthy();
    act(() => socket.emit(status("SN1", DeviceStatus.Paused)));
    expect(screen.queryByRole("alertdialog")).toBeNull();

    fireEvent.click(within(l).getByRole("button", { name: "Resume" }));
    expect(screen.getByRole("alertdialog", { name: "Resume the test?" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    fireEvent.click(within(l).getByRole("button", { name: "Stop" }));
    expect(screen.getByRole("alertdialog", { name: "Stop the test?" })).toBeTruthy();
  });

  it("each confirmation names the patient, the test, the eye, the pattern and the headset it acts on", async () => {
    const { lane: l, socket } = await lane(DeviceStatus.Standby, { "patient.get": () => patient("p1", "Ada Lovelace") });
    fireEvent.click(within(l).getByRole("button", { name: "Start" }));
    const subject = () => within(screen.getByRole("alertdialog")).getByTestId("test-subject");
    await waitFor(() => expect(subject().textContent).toBe("PatientAda Lovelace · U-p1TestTest aEyeRight eyePattern24-2HeadsetRoom 1"));
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    act(() => socket.emit(status("SN1", DeviceStatus.Playing)));
    fireEvent.click(within(l).getByRole("button", { name: "Stop" }));
    expect(screen.getByRole("alertdialog", { name: "Stop the test?" })).toBeTruthy();
    expect(subject().textContent).toContain("Ada Lovelace · U-p1");
  });

  it("shows the seed's failure message when the command fails", async () => {
    const { lane: l } = await lane(DeviceStatus.Standby, {
      "device.update": () => {
        throw new Error("offline");
      },
    });
    fireEvent.click(within(l).getByRole("button", { name: "Start" }));
    expect(screen.getByRole("alertdialog", { name: "Start the test?" })).toBeTruthy();
    fireEvent.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Start" }));
    // core/client closes the dialog and announces the seed's message as a notice.
    expect(await screen.findByText(/error sending the command to the VR device; use the controller or clicker/)).toBeTruthy();
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });
});

describe("alias ('The device alias form sends only a non-empty alias.'; 'alias error 1 s')", () => {
  it("sends a trimmed non-empty alias and never an empty one", async () => {
    const {
      lane: l,
      calls,
      socket,
    } = await lane(DeviceStatus.Standby, {
      "device.update": (i) => {
        // The server announces the change on the live socket.
        setTimeout(() => socket.emit({ type: "device", operation: "update", data: { deviceSn: "SN1", alias: i.body.alias } }), 0);
        return device(1, [], { alias: i.body.alias });
      },
    });
    fireEvent.click(within(l).getByRole("button", { name: "Rename Room 1" }));
    const input = within(l).getByLabelText("Device name");
    fireEvent.change(input, { target: { value: "   " } });
    expect(within(l).getByRole<HTMLButtonElement>("button", { name: "Save" }).disabled).toBe(true);
    fireEvent.submit(input.closest("form")!);
    expect(calls.filter((c) => c.endpoint === "device.update")).toHaveLength(0);
    fireEvent.click(within(l).getByRole("button", { name: "Rename Room 1" }));
    fireEvent.change(within(l).getByLabelText("Device name"), { target: { value: "  Bay 7 " } });
    fireEvent.click(within(l).getByRole("button", { name: "Save" }));
    await within(l).findByRole("button", { name: "Rename Bay 7" });
    expect(calls.filter((c) => c.endpoint === "device.update").map((c) => c.input.body)).toEqual([{ alias: "Bay 7" }]);
  });

  it("shows the error for 1 s when renaming fails", async () => {
    const { lane: l } = await lane(DeviceStatus.Standby, {
      "device.update": () => {
        throw new Error("no");
      },
    });
    fireEvent.click(within(l).getByRole("button", { name: "Rename Room 1" }));
    fireEvent.change(within(l).getByLabelText("Device name"), { target: { value: "Bay 7" } });
    fireEvent.click(within(l).getByRole("button", { name: "Save" }));
    expect(await within(l).findByText("The name could not be changed.")).toBeTruthy();
    expect(ALIAS_ERROR_MS).toBe(1000);
    await waitFor(() => expect(within(l).queryByText("The name could not be changed.")).toBeNull(), { timeout: 2500 });
  });
});

describe("stand-alone switch (scheduling seed §4 'Stand-alone mode')", () => {
  it("'shows only when the device is connected and in standby or await measurement'", async () => {
    const { lane: l, socket } = await lane(DeviceStatus.Standby);
    expect(within(l).getByRole("switch", { name: "Stand-alone" })).toBeTruthy();
    act(() => socket.emit(status("SN1", DeviceStatus.Playing)));
    expect(within(l).queryByRole("switch", { name: "Stand-alone" })).toBeNull();
    act(() => socket.emit(status("SN1", DeviceStatus.AwaitMeasurement)));
    expect(within(l).getByRole("switch", { name: "Stand-alone" })).toBeTruthy();
    act(() =>
      socket.emit({ type: "connection", operation: "update", data: { deviceSn: "SN1", connection: ConnectionStatus.Disconnected } }),
    );
    expect(within(l).queryByRole("switch", { name: "Stand-alone" })).toBeNull();
  });

  it("'Turning on opens the measurement form in stand-alone mode; turning off sends null.'", async () => {
    const { lane: l, store } = await lane(DeviceStatus.Standby);
    fireEvent.click(within(l).getByRole("switch", { name: "Stand-alone" }));
    expect(store.get(measurementFormAtom)).toEqual({ mode: "standalone", deviceSn: "SN1" });
    expect(screen.getByRole("dialog", { name: "Stand-alone measurement" })).toBeTruthy();
    cleanup();
    const on = await lane(
      DeviceStatus.Standby,
      {
        "device.standalone": () => {
          setTimeout(() => on.socket.emit({ type: "device", operation: "update", data: { deviceSn: "SN1", standaloneId: null } }), 0);
          return null;
        },
      },
      { standaloneId: "s1" },
    );
    const toggle = within(on.lane).getByRole("switch", { name: "Stand-alone" });
    expect(toggle.getAttribute("aria-checked")).toBe("true");
    fireEvent.click(toggle);
    await waitFor(() => expect(within(on.lane).getByRole("switch", { name: "Stand-alone" }).getAttribute("aria-checked")).toBe("false"));
    expect(on.calls.find((c) => c.endpoint === "device.standalone")!.input).toEqual({ query: { deviceSn: "SN1" }, body: null });
  });

  it("a lane says when stand-alone mode is on, and it can be switched off while its run is under way (taken between runs)", async () => {
    const on = await lane(
      DeviceStatus.Playing,
      {
        "device.standalone": () => {
          setTimeout(() => on.socket.emit({ type: "device", operation: "update", data: { deviceSn: "SN1", standaloneId: null } }), 0);
          return null;
        },
      },
      { standaloneId: "s1" },
    );
    expect(within(on.lane).getByTestId("standalone-badge").textContent).toBe("Stand-alone mode on");
    const toggle = within(on.lane).getByRole<HTMLButtonElement>("switch", { name: "Stand-alone" });
    expect(toggle.disabled).toBe(false);
    fireEvent.click(toggle);
    expect(await screen.findByText("Stand-alone mode is off. The test under way on Room 1 finishes; no other starts.")).toBeTruthy();
    await waitFor(() => expect(within(on.lane).queryByTestId("standalone-badge")).toBeNull());
    // Off and running: turning it on waits for the seed's rule ("disabled while a test runs", hidden while playing).
    expect(within(on.lane).queryByRole("switch", { name: "Stand-alone" })).toBeNull();
  });

  it("a stand-alone run gets a live panel: the measurement it repeats, read by its stand-alone id, names the patient", async () => {
    const { lane: l, socket } = await lane(
      DeviceStatus.Playing,
      {
        "device.standaloneData": () => ({
          id: "s1",
          deviceSn: "SN1",
          createdAt: "2026-01-01T10:00:00.000Z",
          config: {
            patientId: "p1",
            eye: 1,
            pattern: 1,
            strategy: 3,
            sorsStage: 36,
            stimuliUpdate: 2000,
            stimuliShowtime: 200,
            stimuliSize: 2,
            displayName: "Home screening",
            playSound: false,
            trackGaze: true,
            audioGuide: true,
            tutorial: false,
          },
        }),
        "patient.get": () => patient("p1", "Ada Lovelace"),
      },
      { standaloneId: "s1" },
    );
    act(() =>
      socket.emit({
        type: "measurement",
        operation: "measurement_progress",
        data: {
          deviceSn: "SN1",
          perimetryId: "s1",
          appointmentId: null,
          nTested: 5,
          nLocations: 54,
          gazeTracking: true,
          thresholds: [{ index: 0, dBValue: 28, answerTime: 420 }],
          lastUpdatedIndex: 0,
        },
      }),
    );
    const panel = await within(l).findByTestId("live-panel");
    expect(within(panel).getByTestId("live-standalone").textContent).toBe("Stand-alone run");
    await waitFor(() => expect(within(panel).getByTestId("patient-name").textContent).toBe("Ada Lovelace · U-p1"));
    expect(within(panel).getByText("Home screening · Left eye · 24-2 · Room 1")).toBeTruthy();
  });
});

describe("clicker disconnected (scheduling seed §8 'Clicker disconnected | test stopped message')", () => {
  it("says which headset stopped its test because the clicker dropped out", async () => {
    const { socket } = await lane(DeviceStatus.Playing);
    act(() =>
      socket.emit({
        type: "device",
        operation: "clicker_disconnected",
        data: { deviceSn: "SN1", perimetryId: "a", appointmentId: null, examinationId: null },
      }),
    );
    expect((await screen.findByRole("alert")).textContent).toContain("Room 1: the clicker disconnected, so the test was stopped.");
  });
});

describe("battery ('Display bands' and 'Battery LED')", () => {
  it("shows each battery's band, level and LED colour", async () => {
    const { lane: l } = await lane(
      DeviceStatus.Standby,
      {},
      { battery: { vr: { level: 100, charging: false }, clicker: { level: 15, charging: false } } },
    );
    const vr = within(l).getByRole("img", { name: "VR battery 100%" });
    expect(vr.getAttribute("data-band")).toBe("full");
    expect(vr.querySelector(".led")!.getAttribute("data-colour")).toBe("green");
    const clicker = within(l).getByRole("img", { name: "Clicker battery 15%" });
    expect(clicker.getAttribute("data-band")).toBe("5-20");
    expect(clicker.getAttribute("data-colour")).toBe("red");
    expect(clicker.querySelector(".led")!.getAttribute("data-flashing")).toBe("true");
  });
});
