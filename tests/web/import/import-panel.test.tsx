// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";

vi.mock("@lingui/core/macro", () => import("../lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("../lingui-shim.tsx"));

import type { ImportBody, ImportFileReport, ImportReport } from "../../../core/model/import.ts";
import { ImportPanel } from "../../../web/import/ImportPanel.tsx";
import { fakeApi, renderRoutes, tokenFor, type Handler } from "../render-app.tsx";

// "Import results" (issue 29): files chosen or a folder dropped, "Check only", progress as files done of all, and a
// report with the counts, refused files first, and each imported patient linking to their page.

afterEach(() => cleanup());

const imported = (
  file: string,
  patient = { id: "p9", name: "Ada Field", uniqueId: "U-9", match: "created" as const },
): ImportFileReport => ({
  file,
  format: "dicom-opv",
  action: "imported",
  reason: null,
  items: [
    {
      item: `1.2.3.${file.length}`,
      action: "imported",
      reason: null,
      patient,
      measurementId: `m-${file}`,
      takenAt: "2024-03-01T09:00:00.000Z",
      eye: 0,
      pattern: 1,
      device: "Carl Zeiss Meditec HFA3 860 · SITA Standard",
    },
  ],
});
const refused = (file: string): ImportFileReport => ({
  file,
  format: null,
  action: "refused",
  reason: "not a DICOM file, FHIR Bundle or CSV",
  items: [],
});

function setup(answer: Handler, patientId?: string) {
  const fake = fakeApi({
    checkToken: () => ({ role: "manager", username: "manager", email: "m@x", exp: 4e9 }),
    "results.import": answer,
  });
  const view = renderRoutes(
    [
      { path: "/", element: <ImportPanel {...(patientId ? { patientId, patientName: "Ada Field" } : {})} /> },
      { path: "/patient/:patientId/perimetry/all", element: <p>patient page</p> },
    ],
    "/",
    fake.api,
    tokenFor("manager"),
  );
  return { ...view, calls: fake.calls };
}

const bodies = (calls: Array<{ endpoint: string; input: any }>) =>
  calls.filter((c) => c.endpoint === "results.import").map((c) => c.input.body as ImportBody);
const dicomFile = (name: string) => {
  const bytes = new Uint8Array(300);
  bytes.set(new TextEncoder().encode("DICM"), 128);
  return new File([bytes], name);
};

describe("ImportPanel", () => {
  it("chosen files are imported with progress; the report counts them, lists refused files first and links each patient", async () => {
    let release: (r: ImportReport) => void = () => {};
    const { calls, router } = setup((input) => new Promise<ImportReport>((resolve) => (release = resolve)));
    expect((screen.getByRole("button", { name: "Import files" }) as HTMLButtonElement).disabled).toBe(true);
    const input = screen.getByTestId("import-files-input");
    fireEvent.change(input, { target: { files: [dicomFile("b.dcm"), dicomFile("a.dcm"), new File(["x"], ".DS_Store")] } });
    expect(screen.getByText(/2 files chosen/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Import 2 files" }));

    const bar = await screen.findByRole("progressbar");
    expect(bar.getAttribute("aria-valuemax")).toBe("2");
    expect(bar.getAttribute("aria-valuenow")).toBe("0");
    expect(bar.getAttribute("aria-valuetext")).toBe("0 of 2 files");
    await waitFor(() => expect(bodies(calls)).toHaveLength(1));
    const [body] = bodies(calls);
    expect(body!.dryRun).toBe(false);
    expect(body!.files.map((f) => [f.name, f.encoding])).toEqual([
      ["a.dcm", "base64"],
      ["b.dcm", "base64"],
    ]);
    release({ dryRun: false, files: [imported("a.dcm"), refused("b.dcm")] });

    const report = await screen.findByTestId("import-report");
    await within(report).findByRole("heading", { name: "Import report" });
    expect(within(screen.getByTestId("count-imported")).getByText("1")).toBeTruthy();
    expect(within(screen.getByTestId("count-refused")).getByText("1")).toBeTruthy();
    expect(within(screen.getByTestId("count-patients-created")).getByText("1")).toBeTruthy();
    expect(screen.queryByRole("progressbar")).toBeNull();
    const files = [...report.querySelectorAll(".import-file")].map((li) => li.getAttribute("data-action"));
    expect(files).toEqual(["refused", "imported"]);
    expect(within(report).getByText("not a DICOM file, FHIR Bundle or CSV")).toBeTruthy();
    const links = within(report).getAllByRole("link", { name: "Ada Field (U-9)" });
    expect(links[0]!.getAttribute("href")).toBe("/patient/p9/perimetry/all");
    fireEvent.click(links[0]!);
    await waitFor(() => expect(router.state.location.pathname).toBe("/patient/p9/perimetry/all"));
  });

  it("'Check only' sends a dry run with the patient of the page and the CSV mapping, and says nothing was written", async () => {
    const { calls } = setup(
      (input: { body: ImportBody }) => ({
        dryRun: input.body.dryRun,
        files: input.body.files.map((f) => imported(f.name, { id: null as never, name: "Ada Field", uniqueId: "U-9", match: "created" })),
      }),
      "p1",
    );
    expect(screen.getByText("Every result must belong to Ada Field: a file of another patient is refused.")).toBeTruthy();
    fireEvent.change(screen.getByTestId("import-files-input"), { target: { files: [new File(["id,eye\nA,OD\n"], "fields.csv")] } });
    fireEvent.change(screen.getByTestId("import-mapping-input"), {
      target: { files: [new File(["A,U-9\n"], "map.csv")] },
    });
    await screen.findByText("1 ID mapped");
    expect(screen.getByText("map.csv")).toBeTruthy();
    fireEvent.click(screen.getByRole("checkbox", { name: "Check only (dry run)" }));
    fireEvent.click(screen.getByRole("button", { name: "Check 1 file" }));
    await screen.findByRole("heading", { name: "What would happen" });
    expect(bodies(calls)[0]).toEqual({
      dryRun: true,
      patientId: "p1",
      csvPatients: { A: "U-9" },
      files: [{ name: "fields.csv", encoding: "utf8", content: "id,eye\nA,OD\n" }],
    });
    expect(screen.getByText("Check only: nothing was written.")).toBeTruthy();
    expect(within(screen.getByTestId("count-patients-created")).getByText("Patients to create")).toBeTruthy();
    // A patient still to be created has no page yet.
    expect(within(screen.getByTestId("import-report")).queryByRole("link")).toBeNull();
    // The files stay chosen for the import that follows the check.
    expect(screen.getByRole("button", { name: "Check 1 file" })).toBeTruthy();
  });

  it("a mapping file with a bad line is named and the import waits for a good one", async () => {
    setup(() => ({ dryRun: false, files: [] }));
    fireEvent.change(screen.getByTestId("import-files-input"), { target: { files: [new File(["x"], "a.csv")] } });
    fireEvent.change(screen.getByTestId("import-mapping-input"), {
      target: { files: [new File(["A,U-1\nB\n"], "map.csv")] },
    });
    expect((await screen.findByRole("alert")).textContent).toBe('Line 2 of map.csv is not "csv id,patient ID".');
    expect((screen.getByRole("button", { name: "Import 1 file" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("a folder dropped on the drop zone is walked to its files, named by their path", async () => {
    const { calls } = setup((input: { body: ImportBody }) => ({ dryRun: false, files: input.body.files.map((f) => imported(f.name)) }));
    const file = (name: string, path: string) => ({
      name,
      fullPath: path,
      isFile: true,
      isDirectory: false,
      file: (ok: (f: File) => void) => ok(new File(["row\n"], name)),
    });
    const folder = (name: string, path: string, children: unknown[]) => {
      const chunks = [children.slice(0, 1), children.slice(1), []];
      return {
        name,
        fullPath: path,
        isFile: false,
        isDirectory: true,
        createReader: () => ({ readEntries: (ok: (e: unknown[]) => void) => ok(chunks.shift() ?? []) }),
      };
    };
    const root = folder("exams", "/exams", [
      file("2.csv", "/exams/2.csv"),
      folder("old", "/exams/old", [file("1.csv", "/exams/old/1.csv"), file(".hidden", "/exams/old/.hidden")]),
      file("DICOMDIR", "/exams/DICOMDIR"),
    ]);
    fireEvent.drop(screen.getByTestId("import-drop-zone"), {
      dataTransfer: { types: ["Files"], files: [], items: [{ kind: "file", webkitGetAsEntry: () => root }] },
    });
    await screen.findByText(/2 files chosen/);
    fireEvent.click(screen.getByRole("button", { name: "Import 2 files" }));
    await screen.findByRole("heading", { name: "Import report" });
    expect(bodies(calls)[0]!.files.map((f) => f.name)).toEqual(["exams/2.csv", "exams/old/1.csv"]);
  });
});
