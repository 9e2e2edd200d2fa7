// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";

vi.mock("@lingui/core/macro", () => import("../lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("../lingui-shim.tsx"));

import { programme as fixture, renderTab } from "./fixtures.tsx";

// The programme's reminder e-mail (issue 31 §3: reminders for missed sessions; the patient record has no e-mail): the
// Lend a headset form asks for it, optional, checks it with core/rules' e-mail rule before sending, sends it trimmed
// or not at all, and the programme's row shows where reminders go.

const programme = (reminderEmail: string | null, id: string, deviceSn: string) =>
  fixture({ reminderEmail, id, deviceSn, standaloneId: `s-${id}` });

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
