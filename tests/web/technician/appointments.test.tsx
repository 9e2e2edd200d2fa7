// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";

vi.mock("@lingui/core/macro", () => import("../lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("../lingui-shim.tsx"));

import type { Appointment } from "../../../core/model/appointment.ts";
import type { Examination } from "../../../core/model/examination.ts";
import { AmslerAnswer, Pattern, Strategy, patternLabel } from "../../../core/model/enums.ts";
import { dropOf } from "../../../web/technician/Lanes.tsx";
import { fakeApi } from "../render-app.tsx";
import { device, patient } from "./fixtures.ts";
import { fakeSocket, renderTechnician } from "./render.tsx";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const exam = (id: string, type: Examination["type"], over: Partial<Examination> = {}): Examination => ({
  id,
  patientId: "p1",
  type,
  eye: 0,
  notes: "",
  taken: false,
  appointmentId: "A1",
  deviceSn: "SN1",
  result: null,
  config: null,
  createdAt: "2026-01-01T10:00:00.000Z",
  updatedAt: "2026-01-01T10:00:00.000Z",
  trashedAt: null,
  ...over,
});
const appointment = (id: string, examinations: Examination[]): Appointment => ({
  id,
  patientId: "p1",
  deviceSn: "SN1",
  examinations,
  audioGuide: true,
  tutorial: false,
  trackGaze: true,
  standaloneId: null,
  createdAt: "2026-01-01T10:00:00.000Z",
  updatedAt: "2026-01-01T10:00:00.000Z",
  trashedAt: null,
});

describe("appointment variant (scheduling seed §2)", () => {
  it("shows appointment cards, no measurement plus, and 'Appointments field missing in one or more devices.'", async () => {
    const { api } = fakeApi({
      "device.all": () => [
        device(1, [], {
          appointments: [
            appointment("A1", [exam("e1", "amsler"), exam("e2", "acuity", { taken: true })]),
            appointment("A2", [exam("e3", "amsler")]),
          ],
        }),
        device(2),
      ],
      "patient.get": () => patient("p1", "Ada Lovelace"),
    });
    renderTechnician(api, { appointments: true });
    const lanes = await screen.findAllByTestId("lane");
    const card = lanes[0]!.querySelector(".acard")!;
    expect(card.textContent).toContain("Appointment · 2 tests");
    expect([...lanes[0]!.querySelectorAll(".acard .acard-meta")].map((e) => e.textContent)).toEqual([
      "Appointment · 2 tests",
      "Appointment · 1 test",
    ]);
    // Whose appointment it is: the card's title is the patient (name and ID).
    await waitFor(() =>
      expect([...lanes[0]!.querySelectorAll(".acard .mcard-title")].map((e) => e.textContent)).toEqual([
        "Ada Lovelace · U-p1",
        "Ada Lovelace · U-p1",
      ]),
    );
    expect(card.textContent).toContain("1/2");
    expect(within(lanes[0]!).queryByRole("button", { name: /New measurement/ })).toBeNull();
    expect(screen.getByText("Appointments field missing in one or more devices.")).toBeTruthy();
  });

  it("opens the side panel; a failed reorder wiggles and says 'Examination couldn't be reordered / Please try again'; delete asks first", async () => {
    const { api, calls } = fakeApi({
      "device.all": () => [device(1, [], { appointments: [appointment("A1", [exam("e1", "amsler"), exam("e2", "acuity")])] })],
      "appointment.reorderExaminations": () => {
        throw new Error("500");
      },
      "examination.trash": () => exam("e1", "amsler"),
      "examination.all": () => [],
      "appointment.all": () => [],
    });
    const { client } = renderTechnician(api, { appointments: true });
    const lane = await screen.findByTestId("lane");
    fireEvent.click(lane.querySelector(".acard")!);
    const panel = screen.getByTestId("appointment-panel");
    expect(within(panel).getByText("Amsler grid · Right eye")).toBeTruthy();
    await act(async () => {
      await client.lanes.reorderExaminations("A1", 0, 1);
    });
    expect(calls.find((c) => c.endpoint === "appointment.reorderExaminations")!.input.body).toEqual({ newExaminationsIds: ["e2", "e1"] });
    await waitFor(() => expect(screen.getByTestId("appointment-panel").className).toContain("acard-wiggle"));
    expect(await screen.findByText(/The examination could not be reordered/)).toBeTruthy();
    // "then revert"
    await waitFor(() =>
      expect(
        within(screen.getByTestId("appointment-panel"))
          .getAllByText(/·/)
          .map((n) => n.textContent),
      ).toEqual(["Amsler grid · Right eye", "Visual acuity · Right eye"]),
    );

    fireEvent.click(within(screen.getByTestId("appointment-panel")).getByRole("button", { name: "Delete Amsler grid · Right eye" }));
    fireEvent.click(within(screen.getByRole("alertdialog", { name: "Delete this examination?" })).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(calls.some((c) => c.endpoint === "examination.trash" && c.input.query.id === "e1")).toBe(true));
    expect(await screen.findByText(/Examination deleted/)).toBeTruthy();
  });
});

describe("appointment panel drags, as a screen reader hears them", () => {
  it("announces the examination (test, eye) and its positions, never a raw id, and instructs how to move one", async () => {
    const { api } = fakeApi({
      "device.all": () => [device(1, [], { appointments: [appointment("A1", [exam("e1", "amsler"), exam("e2", "acuity", { eye: 1 })])] })],
      "patient.get": () => patient("p1", "Ada Lovelace"),
    });
    renderTechnician(api, { appointments: true });
    fireEvent.click((await screen.findByTestId("lane")).querySelector(".acard")!);
    const panel = screen.getByTestId("appointment-panel");
    const handle = within(panel).getByText("Amsler grid · Right eye");
    const instructions = document.getElementById(handle.getAttribute("aria-describedby")!)!;
    expect(instructions.textContent).toMatch(/^To move an examination, press space or enter/);
    handle.focus();
    fireEvent.keyDown(handle, { code: "Space", key: " " });
    const live = () => document.querySelector('[id^="DndLiveRegion"]')!.textContent;
    await waitFor(() => expect(live()).toBe("Picked up Amsler grid · Right eye, position 1 of 2."));
    fireEvent.keyDown(document, { code: "Escape", key: "Escape" });
    await waitFor(() => expect(live()).toBe("Moving Amsler grid · Right eye cancelled; it stays at position 1 of 2."));
    expect(live()).not.toMatch(/\be1\b/);
    // The panel stays open: Escape cancelled the drag, it did not close the panel.
    expect(screen.getByTestId("appointment-panel")).toBeTruthy();
  });
});

describe("drop position (core/scheduling's index convention)", () => {
  const event = (
    active: { deviceId: string; index: number },
    over: { deviceId: string; index?: number; lane?: true } | null,
    pointerRight: boolean,
  ) =>
    ({
      active: {
        id: "x",
        data: { current: active },
        rect: {
          current: { initial: null, translated: { left: pointerRight ? 160 : 100, width: 40, top: 0, height: 10, right: 0, bottom: 0 } },
        },
      },
      over: over && {
        id: "y",
        data: { current: over },
        rect: { left: 100, width: 100, top: 0, height: 10, right: 200, bottom: 10 },
        disabled: false,
      },
    }) as never;
  const lengths = (id: string) => (id === "d1" ? 3 : 2);

  it("within a lane, the drop index is the card's new index; over another lane's card, before or after by its half", () => {
    expect(dropOf(event({ deviceId: "d1", index: 0 }, { deviceId: "d1", index: 2 }, false), lengths)!.destination).toEqual({
      deviceId: "d1",
      index: 2,
    });
    expect(dropOf(event({ deviceId: "d1", index: 0 }, { deviceId: "d2", index: 1 }, false), lengths)!.destination).toEqual({
      deviceId: "d2",
      index: 1,
    });
    expect(dropOf(event({ deviceId: "d1", index: 0 }, { deviceId: "d2", index: 1 }, true), lengths)!.destination).toEqual({
      deviceId: "d2",
      index: 2,
    });
  });
  it("over a lane's empty space the card goes last; outside any lane there is no destination", () => {
    expect(dropOf(event({ deviceId: "d1", index: 0 }, { deviceId: "d2", lane: true }, false), lengths)!.destination).toEqual({
      deviceId: "d2",
      index: 2,
    });
    expect(dropOf(event({ deviceId: "d1", index: 0 }, { deviceId: "d1", lane: true }, false), lengths)!.destination).toEqual({
      deviceId: "d1",
      index: 2,
    });
    expect(dropOf(event({ deviceId: "d1", index: 0 }, null, false), lengths)!.destination).toBeNull();
  });
});

describe("examination wizard ('Steps: patient selection, patient creation, test selection, configuration (one step per chosen test), then a summary')", () => {
  it("walks the steps with Back and Next and registers the appointment with 'Save tests'", async () => {
    const { api, calls } = fakeApi({
      "device.all": () => [device(1, [], { appointments: [] })],
      "patient.search": () => ({
        entries: [
          {
            id: "p1",
            name: "Ada Lovelace",
            uniqueId: "U-1",
            gender: 0,
            lang: "en",
            birthdate: "1960-01-01",
            createdAt: "x",
            updatedAt: "x",
            trashedAt: null,
          },
        ],
        remaining: 0,
        page: 0,
      }),
      "appointment.registerWithExaminations": (i) =>
        appointment(
          "A9",
          i.body.examinations.map((e: Examination, k: number) => exam(`n${k}`, e.type)),
        ),
    });
    renderTechnician(api, { appointments: true });
    const lane = await screen.findByTestId("lane");
    fireEvent.click(within(lane).getByRole("button", { name: "New appointment on Room 1" }));
    const wizard = screen.getByRole("dialog", { name: "New appointment" });
    const next = () => within(wizard).getByRole<HTMLButtonElement>("button", { name: /^(Next|Save tests)$/ });
    // "patient selection needs a chosen patient"
    expect(next().disabled).toBe(true);
    expect(within(wizard).queryByRole("button", { name: "Back" })).toBeNull();
    fireEvent.click(await within(wizard).findByRole("option", { name: /Ada Lovelace/ }));
    fireEvent.click(next());
    // "test selection needs at least one test"
    expect(next().disabled).toBe(true);
    fireEvent.click(within(wizard).getByLabelText("Amsler grid"));
    fireEvent.click(within(wizard).getByLabelText("Perimetry"));
    fireEvent.click(next());
    expect(within(wizard).getByText("Test 1 of 2: Perimetry")).toBeTruthy();
    fireEvent.click(next());
    expect(within(wizard).getByText("Test 2 of 2: Amsler grid")).toBeTruthy();
    fireEvent.click(within(wizard).getByRole("button", { name: "Back" }));
    expect(within(wizard).getByText("Test 1 of 2: Perimetry")).toBeTruthy();
    fireEvent.click(next());
    fireEvent.click(next());
    expect(within(wizard).getByRole("heading", { name: "Summary" })).toBeTruthy();
    expect(next().textContent).toBe("Save tests");
    fireEvent.click(next());
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    const body = calls.find((c) => c.endpoint === "appointment.registerWithExaminations")!.input.body;
    expect(body).toMatchObject({ deviceSn: "SN1", patientId: "p1", standaloneId: null });
    expect(body.examinations.map((e: Examination) => e.type)).toEqual(["perimetry", "amsler"]);
    expect(body.examinations[1]).toMatchObject({ eye: 0, config: null });
  });
});

describe("editing one examination ('existing examination gives configuration'; 'Save test' when editing)", () => {
  it("starts at the configuration and saves the examination", async () => {
    const { api, calls } = fakeApi({
      "device.all": () => [device(1, [], { appointments: [appointment("A1", [exam("e1", "amsler", { eye: 1 }), exam("e2", "acuity")])] })],
      "examination.update": (i) => exam("e1", "amsler", { eye: i.body.eye }),
    });
    renderTechnician(api, { appointments: true });
    const lane = await screen.findByTestId("lane");
    fireEvent.click(lane.querySelector(".acard")!);
    fireEvent.click(within(screen.getByTestId("appointment-panel")).getByRole("button", { name: "Edit Amsler grid · Left eye" }));
    const wizard = screen.getByRole("dialog", { name: "Edit test" });
    expect(within(wizard).getByText("Test 1 of 1: Amsler grid")).toBeTruthy();
    expect(within(wizard).queryByRole("button", { name: "Back" })).toBeNull();
    const eye = within(wizard).getByLabelText(/^Eye/) as HTMLSelectElement;
    expect([...eye.options].map((o) => o.textContent)).toEqual(["Right eye", "Left eye"]);
    fireEvent.change(eye, { target: { value: "0" } });
    fireEvent.click(within(wizard).getByRole("button", { name: "Save test" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    const call = calls.find((c) => c.endpoint === "examination.update")!;
    expect(call.input.query).toEqual({ id: "e1" });
    expect(call.input.body).toMatchObject({ id: "e1", type: "amsler", eye: 0, config: null, deviceSn: "SN1", patientId: "p1" });
  });
});

describe("'Malformed appointment data shows the text 'Appointments unsupported''", () => {
  it("names a device list whose appointments did not decode", async () => {
    const { ApiError } = await import("../../../core/model/contract/errors.ts");
    const { api } = fakeApi({
      "device.all": () => {
        throw new ApiError({
          status: 200,
          responseType: undefined,
          message: "Unexpected response",
          field: "data[0].appointments[1].examinations",
        });
      },
    });
    renderTechnician(api, { appointments: true });
    expect(await screen.findByText("Appointments unsupported")).toBeTruthy();
  });
});

describe("'measurement ready' in the appointment variant: 'shows a success notice \"measurement ready\" for 10 s with an action opening the patient's result'", () => {
  const amslerResult = { answer: AmslerAnswer.Healthy, takenAt: "2026-01-02T10:00:00.000Z", deviceSn: "SN1", appointmentId: "A1" };
  it.each([
    ["an Amsler examination opens the patient's Amsler grid", "amsler" as const, "/patient/p1/amsler-grid"],
    ["an acuity examination, which has no result page, opens the patient's overview", "acuity" as const, "/patient/p1/overview"],
  ])("%s", async (_name, type, path) => {
    const socket = fakeSocket();
    const { api } = fakeApi({ "device.all": () => [device(1, [], { appointments: [appointment("A1", [exam("e1", type)])] })] });
    const { router } = renderTechnician(api, { appointments: true, socket });
    await screen.findByTestId("lane");
    act(() =>
      socket.emit({
        type: "examination",
        operation: "measurement_result_ready",
        data: exam("e1", type, { taken: true, result: type === "amsler" ? amslerResult : null }),
      }),
    );
    fireEvent.click(await screen.findByRole("button", { name: "Open result" }));
    expect(router.state.location.pathname).toBe(path);
  });
});

describe("?scrollTo={deviceSn}/{examId} in the appointment variant", () => {
  it("blinks the appointment card that holds the examination home named", async () => {
    const { api } = fakeApi({
      "device.all": () => [device(1, [], { appointments: [appointment("A1", [exam("e1", "amsler"), exam("e2", "perimetry")])] })],
    });
    renderTechnician(api, { appointments: true, path: "/technician?scrollTo=SN1/e2" });
    await waitFor(() => expect(document.getElementById("card-A1")!.className).toContain("mcard-blink"));
  });
});

describe("examination wizard: patient creation, the patient on every step, the summary", () => {
  const created = patient("p7", "Grace Hopper", { uniqueId: "GH-7" });
  const wizardApi = (register: () => unknown) =>
    fakeApi({
      "device.all": () => [device(1, [], { appointments: [] })],
      "patient.search": () => ({ entries: [], remaining: 0, page: 0 }),
      "patient.register": register,
      "appointment.registerWithExaminations": (i) =>
        appointment(
          "A9",
          i.body.examinations.map((e: Examination, k: number) => exam(`n${k}`, e.type)),
        ),
    });

  it("shows 'This field is required.' under each required field left empty (accounts seed §5 'Required fields: \"This field is required.\" with a red asterisk')", async () => {
    const { api, calls } = wizardApi(() => created);
    renderTechnician(api, { appointments: true });
    fireEvent.click(within(await screen.findByTestId("lane")).getByRole("button", { name: "New appointment on Room 1" }));
    const wizard = screen.getByRole("dialog", { name: "New appointment" });
    fireEvent.click(within(wizard).getByRole("button", { name: "New patient" }));
    // Nothing is said before the user has done anything.
    expect(within(wizard).queryByText("This field is required.")).toBeNull();
    const name = within(wizard).getByLabelText(/^Name/);
    fireEvent.blur(name);
    expect(within(wizard).getAllByText("This field is required.")).toHaveLength(1);
    expect(name.getAttribute("aria-invalid")).toBe("true");
    fireEvent.click(within(wizard).getByRole("button", { name: "Create patient" }));
    // name, ID, gender, language and birthdate: five fields, five messages, and no call.
    expect(within(wizard).getAllByText("This field is required.")).toHaveLength(5);
    expect(calls.some((c) => c.endpoint === "patient.register")).toBe(false);
    fireEvent.change(name, { target: { value: "Grace Hopper" } });
    expect(within(wizard).getAllByText("This field is required.")).toHaveLength(4);
  });

  it("clears 'Couldn't create a patient' once a retry succeeds, names the patient on the test steps and lists pattern and strategy in the summary", async () => {
    const { ApiError } = await import("../../../core/model/contract/errors.ts");
    let attempts = 0;
    const { api } = wizardApi(() => {
      attempts += 1;
      if (attempts === 1) throw new ApiError({ status: 500, responseType: "internal", message: "database away" });
      return created;
    });
    renderTechnician(api, { appointments: true });
    fireEvent.click(within(await screen.findByTestId("lane")).getByRole("button", { name: "New appointment on Room 1" }));
    const wizard = screen.getByRole("dialog", { name: "New appointment" });
    fireEvent.click(within(wizard).getByRole("button", { name: "New patient" }));
    fireEvent.change(within(wizard).getByLabelText(/^Name/), { target: { value: "Grace Hopper" } });
    fireEvent.change(within(wizard).getByLabelText(/^Patient ID/), { target: { value: "GH-7" } });
    fireEvent.change(within(wizard).getByLabelText(/^Birthdate/), { target: { value: "1950-12-09" } });
    fireEvent.change(within(wizard).getByLabelText(/^Gender/), { target: { value: "0" } });
    fireEvent.change(within(wizard).getByLabelText(/^Language/), { target: { value: "en" } });
    fireEvent.click(within(wizard).getByRole("button", { name: "Create patient" }));
    expect((await within(wizard).findByRole("alert")).textContent).toBe("Couldn't create a patient: database away");
    fireEvent.click(within(wizard).getByRole("button", { name: "Create patient" }));
    await within(wizard).findByText("Patient Grace Hopper created.");
    expect(within(wizard).queryByText(/Couldn't create a patient/)).toBeNull();

    const next = () => within(wizard).getByRole<HTMLButtonElement>("button", { name: /^(Next|Save tests)$/ });
    fireEvent.click(next());
    expect(within(wizard).getByTestId("wizard-patient").textContent).toBe("Patient: Grace Hopper GH-7");
    fireEvent.click(within(wizard).getByLabelText("Perimetry"));
    fireEvent.click(within(wizard).getByLabelText("Amsler grid"));
    fireEvent.click(next());
    expect(within(wizard).getByText("Test 1 of 2: Perimetry")).toBeTruthy();
    expect(within(wizard).getByTestId("wizard-patient").textContent).toBe("Patient: Grace Hopper GH-7");
    fireEvent.change(within(wizard).getByLabelText(/^Pattern/), { target: { value: String(Pattern.P10_2) } });
    fireEvent.change(within(wizard).getByLabelText(/^Strategy/), { target: { value: String(Strategy.DS) } });
    fireEvent.change(within(wizard).getByLabelText(/^Eye/), { target: { value: "1" } });
    fireEvent.click(next());
    expect(within(wizard).getByText("Test 2 of 2: Amsler grid")).toBeTruthy();
    expect(within(wizard).getByTestId("wizard-patient").textContent).toBe("Patient: Grace Hopper GH-7");
    fireEvent.click(next());
    const items = [...within(wizard).getByRole("list").querySelectorAll("li")].map((li) => li.textContent);
    expect(items).toEqual([`Perimetry · Left eye · ${patternLabel[Pattern.P10_2]} · Dynamic`, "Amsler grid · Right eye"]);
  });
});
