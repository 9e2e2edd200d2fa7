// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";

vi.mock("@lingui/core/macro", () => import("../lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("../lingui-shim.tsx"));

import type { ReviewItemView } from "../../../core/model/contract/index.ts";
import { Eye } from "../../../core/model/enums.ts";
import AdherencePage from "../../../web/pages/review/AdherencePage.tsx";
import ReviewLayout from "../../../web/pages/review/ReviewLayout.tsx";
import ReviewQueuePage from "../../../web/pages/review/ReviewQueuePage.tsx";
import { fakeApi, renderRoutes, tokenFor } from "../render-app.tsx";

// /review over a fake Api (issue 31 §2, §3): the queue as the server orders it, each item's flags in words, the
// filters sent as the address says, an action only after its confirmation, and the adherence list below a threshold.

const item = (id: string, over: Partial<ReviewItemView>): ReviewItemView => ({
  id,
  kind: "result",
  patient: { id: "p1", name: "Ada Lovelace" },
  programmeId: "h1",
  measurementId: `m-${id}`,
  eye: Eye.Right,
  takenAt: "2026-02-01T10:00:00.000Z",
  session: null,
  flags: [],
  triage: "done",
  state: "new",
  note: null,
  reviewedBy: null,
  reviewedAt: null,
  repeatRequestedAt: null,
  repeat: null,
  bookedMeasurementIds: [],
  createdAt: "2026-02-01T10:05:00.000Z",
  ...over,
});
const unreliable = item("r1", {
  eye: Eye.Left,
  flags: [{ kind: "unreliable", reasons: [{ code: "false-positives", rate: 0.5, limit: 0.15 }] }],
});
const missed = item("r2", {
  kind: "missed",
  measurementId: null,
  eye: null,
  flags: [{ kind: "missed", reasons: [{ code: "missed-sessions", sessions: 3 }] }],
});

function renderReview(path: string, handlers: Parameters<typeof fakeApi>[0]) {
  const { api, calls } = fakeApi({ "device.all": () => [], ...handlers });
  const routes = [
    {
      path: "/review",
      element: <ReviewLayout />,
      children: [
        { index: true, element: <ReviewQueuePage /> },
        { path: "adherence", element: <AdherencePage /> },
      ],
    },
    { path: "/patient/:patientId/perimetry/:id", element: <p>Result page</p> },
  ];
  return { ...renderRoutes(routes, path, api, tokenFor("user")), calls };
}

afterEach(cleanup);

describe("the review queue", () => {
  it("shows each item's patient, eye and flags in words, with the filters from the address", async () => {
    const { calls } = renderReview("/review?flag=unreliable", {
      "review.queue": () => ({ items: [unreliable, missed], total: 2, page: 0 }),
    });
    const rows = await screen.findAllByRole("row");
    expect(calls.find((c) => c.endpoint === "review.queue")!.input).toEqual({
      query: { flag: "unreliable", state: "new", page: 0, quantity: 50 },
    });
    const first = within(rows[1]!);
    expect(first.getByText("Ada Lovelace")).toBeTruthy();
    expect(first.getByText("Left eye")).toBeTruthy();
    expect(rows[1]!.querySelector('[data-flag="unreliable"]')!.textContent).toBe("Unreliable: False positives 50 % (limit 15 %)");
    expect(first.getByRole("link", { name: "Open result" }).getAttribute("href")).toBe("/patient/p1/perimetry/m-r1?scrollToMeasurement=1");
    // Missed sessions: no result to open or repeat, every eye of the programme.
    const second = within(rows[2]!);
    expect(second.getByText("Both eyes")).toBeTruthy();
    expect(rows[2]!.querySelector('[data-flag="missed"]')!.textContent).toBe("Missed sessions: 3 sessions missed in a row");
    expect(second.queryByRole("link", { name: "Open result" })).toBeNull();
    expect(second.queryByRole("button", { name: "Ask for a repeat" })).toBeNull();
    fireEvent.change(screen.getByLabelText("State"), { target: { value: "reviewed" } });
    await waitFor(() => expect(calls.filter((c) => c.endpoint === "review.queue").at(-1)!.input.query.state).toBe("reviewed"));
  });

  it("says whether the repeat asked for is pending (until its last day), done or not done, and offers no second repeat", async () => {
    const asked = { repeatRequestedAt: "2026-02-02T09:00:00.000Z" };
    const repeated = (id: string, state: "pending" | "done" | "missed") =>
      item(id, { ...asked, repeat: { state, from: "2026-02-02", to: "2026-02-08" } });
    renderReview("/review", {
      "review.queue": () => ({ items: [repeated("a", "pending"), repeated("b", "done"), repeated("c", "missed")], total: 3, page: 0 }),
    });
    const rows = (await screen.findAllByRole("row")).slice(1);
    expect(rows.map((r) => r.querySelector("[data-repeat]")!.textContent)).toEqual([
      "Repeat asked for on Feb 2, 2026: pending until Feb 8, 2026",
      "Repeat asked for on Feb 2, 2026: done",
      "Repeat asked for on Feb 2, 2026: not done by Feb 8, 2026",
    ]);
    for (const r of rows) expect(within(r).queryByRole("button", { name: "Ask for a repeat" })).toBeNull();
  });

  it("marks an item reviewed only after the confirmation, then reads the queue and the counts again", async () => {
    let marked = false;
    const { calls } = renderReview("/review", {
      "review.queue": () => ({ items: marked ? [] : [unreliable], total: marked ? 0 : 1, page: 0 }),
      "review.counts": () => ({ unreliable: 0, outlier: 0, progression: 0, missed: 0, triageFailed: 0 }),
      "review.mark": () => {
        marked = true;
        return { ...unreliable, state: "reviewed" };
      },
    });
    fireEvent.click(await screen.findByRole("button", { name: "Mark reviewed" }));
    const dialog = within(screen.getByRole("alertdialog", { name: "Mark this result reviewed?" }));
    expect(dialog.getByText("Left eye")).toBeTruthy();
    expect(calls.some((c) => c.endpoint === "review.mark")).toBe(false);
    fireEvent.click(dialog.getByRole("button", { name: "Mark reviewed" }));
    expect(await screen.findByText("Nothing to review")).toBeTruthy();
    expect(calls.find((c) => c.endpoint === "review.mark")!.input).toEqual({ query: { id: "r1" }, body: {} });
  });

  it("lists the patients below the chosen adherence threshold", async () => {
    const { calls } = renderReview("/review/adherence?below=70", {
      "home.adherenceList": () => [
        {
          programmeId: "h1",
          patient: { id: "p1", name: "Ada Lovelace" },
          today: "2026-02-01",
          due: 4,
          done: 1,
          missed: 3,
          partial: 0,
          rate: 0.25,
          repeats: { pending: 0, done: 0, missed: 0 },
        },
      ],
    });
    const row = within((await screen.findByText("Ada Lovelace")).closest("tr")!);
    expect(row.getByText("25 %")).toBeTruthy();
    expect(calls.find((c) => c.endpoint === "home.adherenceList")!.input).toEqual({ query: { below: 0.7 } });
  });
});
