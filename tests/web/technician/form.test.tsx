// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";

vi.mock("@lingui/core/macro", () => import("../lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("../lingui-shim.tsx"));

import { Eye, Pattern, Strategy, StimulusSize } from "../../../core/model/enums.ts";
import { fakeApi } from "../render-app.tsx";
import { device, measurement, patient } from "./fixtures.ts";
import { renderTechnician } from "./render.tsx";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const patients = [patient("p1", "Ada Lovelace"), patient("p2", "Ben Ito", { lang: "de" })];

async function openForm(handlers: Record<string, (input: any) => unknown> = {}, button = "New measurement on Room 1") {
  const fake = fakeApi({
    "device.all": () => [device(1, [measurement("a", { eye: Eye.Left, pattern: Pattern.P30_2, strategy: Strategy.Normal, notes: "old" })])],
    "patient.search": (i) => ({
      entries: i.body.page === 0 ? patients : [patient("p3", "Cleo Page")],
      remaining: i.body.page === 0 ? 1 : 0,
      page: i.body.page,
    }),
    "perimetry.all": () => [],
    "patient.get": () => patients[0],
    ...handlers,
  });
  const rendered = renderTechnician(fake.api);
  const lane = await screen.findByTestId("lane");
  fireEvent.click(within(lane).getByRole("button", { name: button }));
  const dialog = screen.getByRole("dialog");
  return { ...fake, ...rendered, dialog };
}

// Required fields carry the red asterisk in their label.
const select = (dialog: HTMLElement, label: string) => within(dialog).getByLabelText(new RegExp(`^${label}\\*?$`)) as HTMLSelectElement;
const options = (el: HTMLSelectElement) => [...el.options].map((o) => o.textContent);
const save = (dialog: HTMLElement) =>
  within(dialog)
    .getAllByRole<HTMLButtonElement>("button")
    .find((b) => b.textContent === "Save")!;

describe("measurement form dialog (scheduling seed §2 'Measurement form')", () => {
  it("'a save button that is disabled without a patient'; picking one sets 'Test' plus the name", async () => {
    const { dialog } = await openForm();
    expect(save(dialog).disabled).toBe(true);
    fireEvent.click(await within(dialog).findByRole("option", { name: /Ada Lovelace/ }));
    await waitFor(() => expect(save(dialog).disabled).toBe(false));
    expect((within(dialog).getByLabelText("Display name") as HTMLInputElement).value).toBe("Test Ada Lovelace");
  });

  it("pages the patient search while remaining > 0", async () => {
    const { dialog, calls } = await openForm();
    await within(dialog).findByRole("option", { name: /Ben Ito/ });
    fireEvent.click(within(dialog).getByRole("button", { name: "Show more patients" }));
    await within(dialog).findByRole("option", { name: /Cleo Page/ });
    expect(calls.filter((c) => c.endpoint === "patient.search").map((c) => c.input.body.page)).toEqual([0, 1]);
    expect(within(dialog).queryByRole("button", { name: "Show more patients" })).toBeNull();
  });

  it("applies the rules: defaults, 'Choosing strategy SORS ... forces size III adaptive', SORS locations only for SORS, Esterman locks", async () => {
    const { dialog } = await openForm();
    // "Defaults for a new measurement: eye both, pattern G, strategy SORS ... SORS locations 36"
    expect(select(dialog, "Eye").value).toBe(String(Eye.Both));
    expect(select(dialog, "Pattern").value).toBe(String(Pattern.G));
    expect(select(dialog, "SORS locations").value).toBe("36");
    // "The SORS locations list shows only for SORS and excludes 16."
    expect(options(select(dialog, "SORS locations"))).toEqual(["10", "20", "36", "48", "54"]);
    fireEvent.change(select(dialog, "Strategy"), { target: { value: String(Strategy.Normal) } });
    expect(within(dialog).queryByLabelText("SORS locations")).toBeNull();
    fireEvent.change(select(dialog, "Strategy"), { target: { value: String(Strategy.SORS) } });
    expect(select(dialog, "Stimulus size").value).toBe(String(StimulusSize.III_ADAPTIVE));
    fireEvent.change(select(dialog, "Pattern"), { target: { value: String(Pattern.Esterman) } });
    expect(options(select(dialog, "Strategy"))).toEqual(["One level"]);
    expect(options(select(dialog, "Eye"))).toEqual(["Binocular"]);
    expect(options(select(dialog, "Stimulus size"))).toEqual(["IV"]);
    expect(options(select(dialog, "Stimulus showtime"))).toEqual(["500 ms"]);
  });

  it("'Turning audio guide off turns the tutorial off'; the tutorial needs an English-speaking patient", async () => {
    const { dialog } = await openForm();
    fireEvent.click(await within(dialog).findByRole("option", { name: /Ada Lovelace/ }));
    const tutorial = await within(dialog).findByRole("switch", { name: "Tutorial" });
    await waitFor(() => expect((tutorial as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(tutorial);
    expect(within(dialog).getByRole("switch", { name: "Tutorial" }).getAttribute("aria-checked")).toBe("true");
    fireEvent.click(within(dialog).getByRole("switch", { name: "Audio guide" }));
    expect(within(dialog).getByRole("switch", { name: "Tutorial" }).getAttribute("aria-checked")).toBe("false");
  });

  it("shows the estimated duration per eye from the §9 table", async () => {
    const { dialog } = await openForm();
    // G, SORS 36 = 217.2 s, adaptive counts as 2000, + 85 audio guide + 50 gaze tracking = 352 s = 5 min 52 s.
    expect(within(dialog).getByTestId("estimate").textContent).toBe("Estimated duration: 5 min 52 s per eye");
  });

  it("'Notes: at most 256 characters' with 'a counter that warns within 10 of the limit'", async () => {
    const { dialog } = await openForm();
    const notes = within(dialog).getByLabelText("Notes");
    fireEvent.change(notes, { target: { value: "x".repeat(245) } });
    const counter = dialog.querySelector(".notes-counter")!;
    expect(counter.textContent).toBe("245/256");
    expect(counter.getAttribute("data-warning")).toBe("false");
    fireEvent.change(notes, { target: { value: "x".repeat(246) } });
    expect(counter.getAttribute("data-warning")).toBe("true");
    fireEvent.change(notes, { target: { value: "x".repeat(300) } });
    expect(counter.textContent).toBe("256/256");
  });

  it("registers a new measurement with patient and device, and shows the seed's message when saving fails", async () => {
    let fail = true;
    const { dialog, calls } = await openForm({
      "perimetry.register": () => {
        if (fail) throw new Error("500");
        return [];
      },
    });
    fireEvent.click(await within(dialog).findByRole("option", { name: /Ada Lovelace/ }));
    await waitFor(() => expect(save(dialog).disabled).toBe(false));
    fireEvent.click(save(dialog));
    expect(await within(dialog).findByText("error saving the measurement, try again later")).toBeTruthy();
    const body = calls.find((c) => c.endpoint === "perimetry.register")!.input.body;
    expect(body).toMatchObject({ patientId: "p1", deviceSn: "SN1", displayName: "Test Ada Lovelace", eye: Eye.Both, pattern: Pattern.G });
    fail = false;
    fireEvent.click(save(dialog));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("keeps the configuration last saved for a patient ('patientTestConfigurations') and prefills from it when the server lists no measurement", async () => {
    const { dialog, storage } = await openForm({ "perimetry.register": () => [] });
    fireEvent.click(await within(dialog).findByRole("option", { name: /Ada Lovelace/ }));
    await waitFor(() => expect(save(dialog).disabled).toBe(false));
    fireEvent.change(select(dialog, "Pattern"), { target: { value: String(Pattern.P24_2) } });
    fireEvent.click(save(dialog));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    const stored = JSON.parse(storage.local.get("patientTestConfigurations")!);
    expect(stored.p1).toMatchObject({ patientId: "p1", pattern: Pattern.P24_2 });
    // The next form for Ada (still nothing on the server: perimetry.all answers []) starts from it, not the defaults.
    fireEvent.click(within(await screen.findByTestId("lane")).getByRole("button", { name: "New measurement on Room 1" }));
    const again = screen.getByRole("dialog");
    fireEvent.click(await within(again).findByRole("option", { name: /Ada Lovelace/ }));
    await waitFor(() => expect(select(again, "Pattern").value).toBe(String(Pattern.P24_2)));
  });

  it("edits a queued measurement with PATCH perimetry; 'Both eyes' is offered only when creating", async () => {
    const { dialog, calls } = await openForm({ "perimetry.update": () => measurement("a") }, "Edit Test a");
    expect(screen.getByRole("dialog", { name: "Edit measurement" })).toBeTruthy();
    await within(dialog).findByText("Ada Lovelace");
    expect(options(select(dialog, "Eye"))).toEqual(["Right eye", "Left eye"]);
    expect(select(dialog, "Pattern").value).toBe(String(Pattern.P30_2));
    fireEvent.click(save(dialog));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    const call = calls.find((c) => c.endpoint === "perimetry.update")!;
    expect(call.input.query).toEqual({ id: "a" });
    expect(call.input.body).toMatchObject({ patientId: "p1", deviceSn: "SN1", eye: Eye.Left, pattern: Pattern.P30_2, notes: "old" });
  });

  it("clones into a new registration that carries the clone flag ('cloned flag', scheduling seed §3)", async () => {
    const { dialog, calls } = await openForm({ "perimetry.register": () => [] }, "Clone Test a");
    expect(screen.getByRole("dialog", { name: "Clone measurement" })).toBeTruthy();
    await within(dialog).findByText("Ada Lovelace");
    fireEvent.click(save(dialog));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(calls.find((c) => c.endpoint === "perimetry.register")!.input.body).toMatchObject({
      patientId: "p1",
      pattern: Pattern.P30_2,
      cloned: true,
    });
  });

  it("a new measurement is registered with the seed's body alone (no clone flag)", async () => {
    const { dialog, calls } = await openForm({ "perimetry.register": () => [] });
    fireEvent.click(await within(dialog).findByRole("option", { name: /Ada Lovelace/ }));
    await waitFor(() => expect(save(dialog).disabled).toBe(false));
    fireEvent.click(save(dialog));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(calls.find((c) => c.endpoint === "perimetry.register")!.input.body).not.toHaveProperty("cloned");
  });
});

describe("stand-alone mode form", () => {
  it("sends the configuration 'without notes and deviceSn' to device/standalone and marks the lane", async () => {
    let standaloneId: string | null = null;
    const fake = fakeApi({
      "device.all": () => [device(1, [], { standaloneId })],
      "patient.search": () => ({ entries: patients, remaining: 0, page: 0 }),
      "perimetry.all": () => [],
      "device.standalone": (i) => {
        standaloneId = "s9";
        return { id: "s9", deviceSn: "SN1", config: i.body, createdAt: "2026-01-01T10:00:00.000Z" };
      },
    });
    renderTechnician(fake.api);
    const lane = await screen.findByTestId("lane");
    fireEvent.click(within(lane).getByRole("switch", { name: "Stand-alone" }));
    const form = screen.getByRole("dialog", { name: "Stand-alone measurement" });
    expect(within(form).queryByLabelText("Notes")).toBeNull();
    fireEvent.click(await within(form).findByRole("option", { name: /Ada Lovelace/ }));
    const start = within(form).getByRole<HTMLButtonElement>("button", { name: "Start stand-alone mode" });
    await waitFor(() => expect(start.disabled).toBe(false));
    fireEvent.click(start);
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    const call = fake.calls.find((c) => c.endpoint === "device.standalone")!;
    expect(call.input.query).toEqual({ deviceSn: "SN1" });
    expect(call.input.body).not.toHaveProperty("notes");
    expect(call.input.body).not.toHaveProperty("deviceSn");
    expect(call.input.body).toMatchObject({ patientId: "p1", displayName: "Test Ada Lovelace" });
    await waitFor(() => expect(within(lane).getByRole("switch", { name: "Stand-alone" }).getAttribute("aria-checked")).toBe("true"));
  });
});
