// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";

vi.mock("@lingui/core/macro", () => import("../lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("../lingui-shim.tsx"));

import { ApiError } from "../../../core/model/contract/errors.ts";
import { Eye } from "../../../core/model/enums.ts";
import { eyesFor } from "../../../core/rules/eyes.ts";
import { offeredPatterns, strategiesFor } from "../../../core/rules/pattern-options.ts";
import { programme as fixture, renderTab } from "./fixtures.tsx";

// The patient's Home monitoring tab over a fake Api (issue 31 §1): the Lend a headset form offers what the stand-alone
// form offers (core/rules), sends a programme with both eyes as the two eyes, and shows the server's refusal naming
// the rule; Headset returned ends a programme after a confirmation.

// Both eyes, every 3 days: the form's sent body reads back as this.
const programme = fixture({ eyes: [Eye.Right, Eye.Left], frequency: { kind: "every", days: 3 }, standaloneId: "s1" });

const optionValues = (select: HTMLElement) => [...select.querySelectorAll("option")].filter((o) => !o.disabled).map((o) => o.value);

afterEach(cleanup);

describe("Home monitoring", () => {
  it("offers the stand-alone form's patterns, strategies and eyes, and follows the pattern", async () => {
    renderTab({ "home.programmes": () => [] });
    fireEvent.click(await screen.findByRole("button", { name: "Lend a headset" }));
    const form = within(screen.getByRole("form", { name: "Lend a headset" }));
    expect(optionValues(form.getByLabelText("Pattern"))).toEqual(offeredPatterns.map(String));
    for (const pattern of offeredPatterns) {
      fireEvent.change(form.getByLabelText("Pattern"), { target: { value: String(pattern) } });
      expect(optionValues(form.getByLabelText("Strategy"))).toEqual(strategiesFor(pattern).map(String));
      // Stand-alone mode offers no 'Both' (core/rules eyesFor): both eyes are the two eyes, offered when both are.
      const eyes = eyesFor(pattern, "standalone");
      const both = eyes.includes(Eye.Right) && eyes.includes(Eye.Left) ? ["0+1"] : [];
      expect(optionValues(form.getByLabelText("Eyes"))).toEqual([...both, ...eyes.map(String)]);
    }
  });

  it("sends the programme and shows the server's refusal naming the rule", async () => {
    const { calls } = renderTab({
      "home.programmes": () => [],
      "home.programmeCreate": () => {
        throw new ApiError({
          status: 400,
          responseType: "invalid_request",
          field: "body.frequency",
          message: "rule frequency-range (ours: every 2 to 90 days): 120 is refused",
        });
      },
    });
    fireEvent.click(await screen.findByRole("button", { name: "Lend a headset" }));
    const form = within(screen.getByRole("form", { name: "Lend a headset" }));
    await waitFor(() => expect(optionValues(form.getByLabelText(/^Headset/))).toEqual(["VR-0009"]));
    fireEvent.change(form.getByLabelText(/^Headset/), { target: { value: "VR-0009" } });
    fireEvent.change(form.getByLabelText("Frequency"), { target: { value: "every" } });
    fireEvent.change(form.getByLabelText("Every how many days"), { target: { value: "120" } });
    fireEvent.click(form.getByRole("button", { name: "Lend headset" }));
    expect((await form.findByRole("alert")).textContent).toBe("Refused by the rule: Every 2 to 90 days.");
    const sent = calls.find((c) => c.endpoint === "home.programmeCreate")!.input.body;
    expect(sent).toMatchObject({
      patientId: "p1",
      deviceSn: "VR-0009",
      eyes: [Eye.Right, Eye.Left],
      frequency: { kind: "every", days: 120 },
    });
  });

  it("lists a programme with its adherence and ends it as returned after a confirmation", async () => {
    const { calls } = renderTab({
      "home.programmes": () => [programme],
      "home.adherence": () => ({
        programmeId: "h1",
        patientId: "p1",
        today: "2026-01-20",
        due: 6,
        done: 5,
        missed: 1,
        partial: 0,
        rate: 5 / 6,
      }),
      "home.programmeEnd": () => ({ ...programme, state: "ended", endedAt: "2026-01-20T10:00:00.000Z", endedReason: "returned" }),
    });
    const row = within((await screen.findByText("VR-0009")).closest("tr")!);
    expect(row.getByText("Every 3 days")).toBeTruthy();
    expect(row.getByText("Both eyes")).toBeTruthy();
    expect(await row.findByText("5 of 6 sessions done, 1 missed")).toBeTruthy();
    expect(row.getByText("Adherence 83 %")).toBeTruthy();
    fireEvent.click(row.getByRole("button", { name: "Headset returned" }));
    const dialog = within(screen.getByRole("alertdialog", { name: "Headset returned?" }));
    expect(calls.some((c) => c.endpoint === "home.programmeEnd")).toBe(false);
    fireEvent.click(dialog.getByRole("button", { name: "End the programme" }));
    await waitFor(() =>
      expect(calls.find((c) => c.endpoint === "home.programmeEnd")?.input).toEqual({ query: { id: "h1" }, body: { reason: "returned" } }),
    );
  });
});
