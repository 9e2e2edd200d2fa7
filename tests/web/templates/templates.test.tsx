// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";

vi.mock("@lingui/core/macro", () => import("../lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("../lingui-shim.tsx"));

import { Eye, Pattern, Showtime, StimuliUpdate, StimulusSize, Strategy, TestType } from "../../../core/model/enums.ts";
import type { Template, TemplateTest } from "../../../core/model/template.ts";
import { fakeApi, type Handler } from "../render-app.tsx";
import { device, patient } from "../technician/fixtures.ts";
import { renderTemplates } from "./render.tsx";

afterEach(() => {
  cleanup();
});

const perimetry: TemplateTest = {
  type: TestType.Perimetry,
  eye: Eye.Right,
  config: {
    pattern: Pattern.P24_2,
    strategy: Strategy.DS,
    stimuliUpdate: StimuliUpdate.Ms2000,
    stimuliSize: StimulusSize.III,
    stimuliShowtime: Showtime.Ms200,
    sorsLocations: 36,
    sorsStage: 36,
    playSound: false,
    trackGaze: true,
    audioGuide: true,
  },
};
const template = (id: string, name: string, tests: readonly TemplateTest[]): Template => ({
  id,
  name,
  tests,
  createdAt: "2026-01-01T10:00:00.000Z",
  updatedAt: "2026-01-01T10:00:00.000Z",
});
const glaucoma = template("t1", "Glaucoma check", [perimetry, { type: TestType.Amsler, eye: Eye.Both, config: null }]);

function setup(handlers: Record<string, Handler> = {}, multiTests = false, initial: Template[] = [glaucoma]) {
  let list: Template[] = initial;
  const fake = fakeApi({
    "template.all": () => list,
    "organisation.current": () => ({ id: "o1", name: "Clinic", multiTests, market: "MDR", country: "DE" }),
    "device.all": () => [device(1), device(2)],
    "patient.search": () => ({ entries: [patient("p1", "Ada Lovelace")], remaining: 0, page: 0 }),
    ...handlers,
  });
  const rendered = renderTemplates(fake.api);
  return {
    ...fake,
    ...rendered,
    setList: (l: Template[]) => {
      list = l;
    },
  };
}

const button = (scope: HTMLElement, name: string | RegExp) => within(scope).getByRole<HTMLButtonElement>("button", { name });

describe("templates page (issue #8 part 7; our design, the seeds' page is a stub)", () => {
  it("lists templates with named test-type icons", async () => {
    setup();
    const row = await screen.findByTestId("template-row");
    expect(within(row).getByText("Glaucoma check")).toBeTruthy();
    expect(within(row).getByRole("img", { name: "Perimetry" })).toBeTruthy();
    expect(within(row).getByRole("img", { name: "Amsler grid" })).toBeTruthy();
  });

  it("shows a skeleton while loading, then the empty state", async () => {
    let release: (v: Template[]) => void = () => {};
    setup({
      "template.all": () =>
        new Promise<Template[]>((r) => {
          release = r;
        }),
    });
    expect(await screen.findByText("Loading…")).toBeTruthy();
    release([]);
    expect(await screen.findByText("No templates yet")).toBeTruthy();
  });

  it("shows 'The templates cannot be shown.' when the list fails", async () => {
    setup({
      "template.all": () => {
        throw new Error("down");
      },
    });
    expect(await screen.findByText("The templates cannot be shown.")).toBeTruthy();
  });

  it("creates a template: name under the text-input rule, perimetry from the core/rules defaults, added tests", async () => {
    const created: unknown[] = [];
    const { calls } = setup({
      "template.create": (i) => {
        created.push(i.body);
        return template("t2", i.body.name, i.body.tests);
      },
    });
    await screen.findByTestId("template-row");
    fireEvent.click(screen.getByRole("button", { name: "New template" }));
    const dialog = screen.getByRole("dialog");
    const saveButton = button(dialog, "Save template");
    expect(saveButton.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText(/^Template name/), { target: { value: "Bad!" } });
    // "otherwise 'Special characters are not allowed.'" (accounts seed §5)
    expect(within(dialog).getByText("Special characters are not allowed.")).toBeTruthy();
    expect(saveButton.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText(/^Template name/), { target: { value: "Follow up" } });
    expect(saveButton.disabled).toBe(false);
    // "Defaults for a new measurement: eye both, pattern G, strategy SORS ... SORS locations 36" (scheduling seed §9)
    expect((within(dialog).getByLabelText(/^Pattern/) as HTMLSelectElement).value).toBe(String(Pattern.G));
    fireEvent.change(within(dialog).getByLabelText(/^Test type/), { target: { value: TestType.Acuity } });
    fireEvent.click(button(dialog, "Add test"));
    fireEvent.change(within(dialog).getAllByLabelText(/^Eye/)[1]!, { target: { value: String(Eye.Left) } });
    fireEvent.click(saveButton);
    await screen.findByText("The template Follow up was saved.");
    expect(created).toEqual([
      {
        name: "Follow up",
        tests: [
          {
            type: "perimetry",
            eye: Eye.Both,
            config: expect.objectContaining({ pattern: Pattern.G, strategy: Strategy.SORS, sorsLocations: 36, sorsStage: 36 }),
          },
          { type: "acuity", eye: Eye.Left, config: null },
        ],
      },
    ]);
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(calls.filter((c) => c.endpoint === "template.all").length).toBeGreaterThan(1);
  });

  it("edits a template with template/update and keeps the dialog open with a message when saving fails", async () => {
    let fail = true;
    const { calls } = setup({
      "template.update": (i) => {
        if (fail) throw new Error("down");
        return template("t1", i.body.name, i.body.tests);
      },
    });
    fireEvent.click(await screen.findByRole("button", { name: "Edit Glaucoma check" }));
    const dialog = screen.getByRole("dialog");
    expect((within(dialog).getByLabelText(/^Pattern/) as HTMLSelectElement).value).toBe(String(Pattern.P24_2));
    fireEvent.click(button(dialog, "Remove test 2"));
    fireEvent.click(button(dialog, "Save template"));
    expect(await within(dialog).findByText("The template could not be saved. Try again later.")).toBeTruthy();
    fail = false;
    fireEvent.click(button(dialog, "Save template"));
    await screen.findByText("The template Glaucoma check was saved.");
    const update = calls.filter((c) => c.endpoint === "template.update").at(-1)!;
    expect(update.input.query).toEqual({ id: "t1" });
    expect(update.input.body.tests).toEqual([perimetry]);
  });

  it("copies a template and says under which name", async () => {
    const { calls } = setup({ "template.copy": () => template("t3", "Glaucoma check (copy)", glaucoma.tests) });
    fireEvent.click(await screen.findByRole("button", { name: "Copy Glaucoma check" }));
    expect(await screen.findByText("The template was copied as Glaucoma check (copy).")).toBeTruthy();
    expect(calls.find((c) => c.endpoint === "template.copy")!.input.query).toEqual({ id: "t1" });
  });

  it("deletes only after the confirmation dialog", async () => {
    const { calls, setList } = setup({
      "template.delete": (i) => {
        setList([]);
        return { id: i.query.id };
      },
    });
    fireEvent.click(await screen.findByRole("button", { name: "Delete Glaucoma check" }));
    const confirm = screen.getByRole("alertdialog");
    fireEvent.click(button(confirm, "Cancel"));
    expect(calls.some((c) => c.endpoint === "template.delete")).toBe(false);
    fireEvent.click(screen.getByRole("button", { name: "Delete Glaucoma check" }));
    fireEvent.click(button(screen.getByRole("alertdialog"), "Delete template"));
    expect(await screen.findByText("The template was deleted.")).toBeTruthy();
    expect(calls.find((c) => c.endpoint === "template.delete")!.input.query).toEqual({ id: "t1" });
    expect(await screen.findByText("No templates yet")).toBeTruthy();
  });

  it("schedules the perimetry tests for a patient on a device with perimetry/register", async () => {
    const { calls } = setup({ "perimetry.register": () => [] });
    fireEvent.click(await screen.findByRole("button", { name: "Schedule Glaucoma check" }));
    const dialog = screen.getByRole("dialog");
    const go = button(dialog, "Schedule tests");
    expect(go.disabled).toBe(true);
    expect(within(dialog).getByText(/Tests of other types left out: 1\./)).toBeTruthy();
    fireEvent.click(await within(dialog).findByRole("option", { name: /Ada Lovelace/ }));
    await waitFor(() => expect(within(dialog).getAllByRole("option").length).toBeGreaterThan(1));
    fireEvent.change(within(dialog).getByLabelText(/^Device/), { target: { value: "SN2" } });
    expect(go.disabled).toBe(false);
    fireEvent.click(go);
    expect(await screen.findByText("Tests scheduled from Glaucoma check: 1.")).toBeTruthy();
    const registered = calls.filter((c) => c.endpoint === "perimetry.register").map((c) => c.input.body);
    expect(registered).toEqual([
      expect.objectContaining({
        patientId: "p1",
        deviceSn: "SN2",
        displayName: "Test Ada Lovelace",
        eye: Eye.Right,
        pattern: Pattern.P24_2,
        strategy: Strategy.DS,
        tutorial: false,
        notes: "",
      }),
    ]);
  });

  it("says when scheduling fails and keeps the dialog open", async () => {
    setup({
      "perimetry.register": () => {
        throw new Error("down");
      },
    });
    fireEvent.click(await screen.findByRole("button", { name: "Schedule Glaucoma check" }));
    const dialog = screen.getByRole("dialog");
    fireEvent.click(await within(dialog).findByRole("option", { name: /Ada Lovelace/ }));
    await waitFor(() => expect(within(dialog).getAllByRole("option").length).toBeGreaterThan(1));
    fireEvent.change(within(dialog).getByLabelText(/^Device/), { target: { value: "SN1" } });
    fireEvent.click(button(dialog, "Schedule tests"));
    expect(await within(dialog).findByText("The tests could not be scheduled. Try again later.")).toBeTruthy();
  });

  it("in an organisation with appointments, registers one appointment holding every test", async () => {
    const { calls } = setup({ "appointment.registerWithExaminations": () => ({}), "appointment.all": () => [] }, true);
    fireEvent.click(await screen.findByRole("button", { name: "Schedule Glaucoma check" }));
    const dialog = screen.getByRole("dialog");
    fireEvent.click(await within(dialog).findByRole("option", { name: /Ada Lovelace/ }));
    await waitFor(() => expect(within(dialog).getAllByRole("option").length).toBeGreaterThan(1));
    fireEvent.change(within(dialog).getByLabelText(/^Device/), { target: { value: "SN1" } });
    fireEvent.click(button(dialog, "Schedule tests"));
    expect(await screen.findByText("Tests scheduled from Glaucoma check: 2.")).toBeTruthy();
    const body = calls.find((c) => c.endpoint === "appointment.registerWithExaminations")!.input.body;
    expect(body).toMatchObject({ patientId: "p1", deviceSn: "SN1", standaloneId: null, tutorial: false });
    expect(body.examinations).toEqual([
      { patientId: "p1", type: "perimetry", deviceSn: "SN1", eye: Eye.Right, notes: "", config: perimetry.config },
      { patientId: "p1", type: "amsler", deviceSn: "SN1", eye: Eye.Both, notes: "", config: null },
    ]);
    expect(calls.some((c) => c.endpoint === "perimetry.register")).toBe(false);
  });

  it("when a later perimetry/register fails, says how many tests were scheduled", async () => {
    let n = 0;
    setup(
      {
        "perimetry.register": () => {
          n += 1;
          if (n === 2) throw new Error("down");
          return [];
        },
      },
      false,
      [template("t9", "Both sides", [perimetry, { ...perimetry, eye: Eye.Left }])],
    );
    fireEvent.click(await screen.findByRole("button", { name: "Schedule Both sides" }));
    const dialog = screen.getByRole("dialog");
    fireEvent.click(await within(dialog).findByRole("option", { name: /Ada Lovelace/ }));
    await waitFor(() => expect(within(dialog).getAllByRole("option").length).toBeGreaterThan(1));
    fireEvent.change(within(dialog).getByLabelText(/^Device/), { target: { value: "SN1" } });
    fireEvent.click(button(dialog, "Schedule tests"));
    expect(await within(dialog).findByText(/Tests scheduled: 1 of 2; the others failed/)).toBeTruthy();
  });
});
