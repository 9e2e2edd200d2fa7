// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";

vi.mock("@lingui/core/macro", () => import("./lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("./lingui-shim.tsx"));

import { ApiError } from "../../core/model/contract/index.ts";
import type { DicomSettings, PacsFetchReport } from "../../core/model/dicom-network.ts";
import type { ImportFileReport } from "../../core/model/import.ts";
import type { Patient } from "../../core/model/patient.ts";
import PatientLayout from "../../web/pages/patient/PatientLayout.tsx";
import { fakeApi, renderRoutes, tokenFor, type Handler } from "./render-app.tsx";

// "Fetch priors" on the patient's page (issue 29 §3): for managers of an organisation with a PACS, beside "Import
// results"; one command (client.results.fetchPriors, pacs/fetch) and the import's report with how many the PACS holds;
// "Check only" sends a dry run; a PACS that cannot be used is named in the server's sentence.

afterEach(() => cleanup());

const patient: Patient = {
  id: "p1",
  name: "Irmgard Kowalski-Lind",
  uniqueId: "PACS-71",
  gender: 1,
  lang: "en",
  birthdate: "1951-04-12",
  createdAt: "2024-01-01T00:00:00.000Z",
  updatedAt: "2024-01-01T00:00:00.000Z",
  trashedAt: null,
} as Patient;

const pacs: DicomSettings = {
  worklist: null,
  pacs: {
    node: { host: "pacs.clinic.example", port: 104, calledAeTitle: "PACS", callingAeTitle: "ISOPTER" },
    retrieve: "get",
    storePort: null,
  },
};

const file = (uid: string, action: ImportFileReport["action"], measurementId: string | null): ImportFileReport => ({
  file: `PACS/${uid}`,
  format: "dicom-opv",
  action,
  reason: null,
  items: [
    {
      item: `SOP Instance ${uid}`,
      action,
      reason: action === "duplicate" ? "imported before" : null,
      patient:
        action === "imported" ? { id: measurementId === null ? null : "p1", name: patient.name, uniqueId: "PACS-71", match: "id" } : null,
      measurementId,
      takenAt: "2019-03-04T10:11:12.000Z",
      eye: 0,
      pattern: 1,
      device: "Carl Zeiss Meditec HFA3 860 · SITA Standard",
    },
  ],
});

function setup(role: "manager" | "user", handlers: Record<string, Handler>) {
  const fake = fakeApi({
    checkToken: () => ({ role, username: role, email: `${role}@x`, exp: 4e9 }),
    "patient.get": () => patient,
    ...handlers,
  });
  const view = renderRoutes(
    [{ path: "/patient/:patientId", element: <PatientLayout />, children: [{ index: true, element: <p>overview</p> }] }],
    "/patient/p1",
    fake.api,
    tokenFor(role),
  );
  return { ...view, calls: fake.calls };
}

const called = (calls: ReadonlyArray<{ endpoint: string; input: unknown }>, endpoint: string) =>
  calls.filter((c) => c.endpoint === endpoint).map((c) => c.input as { body: { patientId: string; dryRun: boolean } });

describe("Fetch priors", () => {
  it("shows beside 'Import results' for a manager when the organisation has a PACS; fetches and reports what came", async () => {
    const report: PacsFetchReport = {
      found: 3,
      imported: {
        dryRun: false,
        files: [file("1.2.1", "imported", "m1"), file("1.2.2", "imported", "m2"), file("1.2.3", "duplicate", "m0")],
      },
    };
    const { calls } = setup("manager", { "dicom.settings": () => pacs, "pacs.fetch": () => report });
    await screen.findByRole("button", { name: "Import results" });
    fireEvent.click(await screen.findByRole("button", { name: "Fetch priors" }));
    const dialog = await screen.findByRole("dialog", { name: "Fetch priors" });
    expect(
      within(dialog).getByText(
        "Isopter asks the PACS for Irmgard Kowalski-Lind's visual fields (DICOM OPV) under patient ID PACS-71 and imports those it does not have yet. A field of another patient is refused.",
      ),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole("button", { name: "Fetch priors" }));
    expect((await within(dialog).findByTestId("pacs-found")).textContent).toBe("The PACS holds 3 visual fields of this patient.");
    expect(called(calls, "pacs.fetch")).toEqual([{ body: { patientId: "p1", dryRun: false } }]);
    const shown = within(dialog).getByTestId("import-report");
    expect(within(within(shown).getByTestId("count-imported")).getByText("2")).toBeTruthy();
    expect(within(within(shown).getByTestId("count-duplicates")).getByText("1")).toBeTruthy();
    expect(within(shown).getByText("PACS/1.2.3")).toBeTruthy();
    // What an import changes is read again (here the patient on screen).
    await waitFor(() => expect(called(calls, "patient.get").length).toBeGreaterThan(1));
  });

  it("'Check only' sends a dry run and says nothing was written", async () => {
    const { calls } = setup("manager", {
      "dicom.settings": () => pacs,
      "pacs.fetch": ({ body }: { body: { dryRun: boolean } }) => ({
        found: 1,
        imported: { dryRun: body.dryRun, files: [file("1.2.9", "imported", null)] },
      }),
    });
    fireEvent.click(await screen.findByRole("button", { name: "Fetch priors" }));
    const dialog = await screen.findByRole("dialog");
    fireEvent.click(within(dialog).getByLabelText("Check only (dry run)"));
    fireEvent.click(within(dialog).getByRole("button", { name: "Check the PACS" }));
    expect((await within(dialog).findByTestId("pacs-found")).textContent).toBe("The PACS holds 1 visual field of this patient.");
    expect(within(dialog).getByText("Check only: nothing was written.")).toBeTruthy();
    expect(called(calls, "pacs.fetch").map((input) => input.body.dryRun)).toEqual([true]);
  });

  it("a PACS that cannot be used is named in the server's sentence; none found says so", async () => {
    let down = true;
    setup("manager", {
      "dicom.settings": () => pacs,
      "pacs.fetch": () => {
        if (down)
          throw new ApiError({
            status: 503,
            responseType: "unavailable",
            message: "The PACS PACS at pacs.clinic.example:104 cannot be reached (connect ECONNREFUSED)",
          });
        return { found: 0, imported: { dryRun: false, files: [] } };
      },
    });
    fireEvent.click(await screen.findByRole("button", { name: "Fetch priors" }));
    const dialog = await screen.findByRole("dialog");
    fireEvent.click(within(dialog).getByRole("button", { name: "Fetch priors" }));
    const alert = await within(dialog).findByRole("alert");
    expect(alert.textContent).toContain("The PACS could not be used.");
    expect(alert.textContent).toContain("The PACS PACS at pacs.clinic.example:104 cannot be reached");
    down = false;
    fireEvent.click(within(dialog).getByRole("button", { name: "Fetch priors" }));
    expect((await within(dialog).findByTestId("pacs-found")).textContent).toBe("The PACS holds no visual field of this patient.");
    expect(within(dialog).queryByRole("alert")).toBeNull();
    expect(within(dialog).queryByTestId("import-report")).toBeNull();
  });

  it("no PACS set: no button; a user is offered neither button and the settings are not read", async () => {
    setup("manager", { "dicom.settings": () => ({ worklist: null, pacs: null }) });
    await screen.findByRole("button", { name: "Import results" });
    await waitFor(() => expect(screen.queryByRole("button", { name: "Fetch priors" })).toBeNull());
    cleanup();
    const { calls } = setup("user", {});
    await screen.findByRole("button", { name: "Edit" });
    expect(screen.queryByRole("button", { name: "Import results" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Fetch priors" })).toBeNull();
    expect(called(calls, "dicom.settings")).toEqual([]);
  });
});
