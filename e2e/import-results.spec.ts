import { expect, test, type Page } from "@playwright/test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportContext } from "../cli/export/context.ts";
import { opvFile } from "../cli/export/dicom.ts";
import { exportRecord } from "../cli/export/record.ts";
import { sampleMeasurement, samplePatient } from "../tests/cli/fixtures.ts";
import { humphreyOpv } from "../tests/import/humphrey-opv.ts";
import { clippedHtml } from "./clipping.ts";
import { expectAccessible, logIn, pageApi, screenshot } from "./support.ts";

// "Import results" (issue 29): a manager drops a folder of DICOM OPV files of a patient the clinic does not know yet,
// sees the report (every file imported, one patient created), follows the link to the new patient and finds the
// results there; on the patient's page, in German, a check of the same folder finds them all there already.
// The files are the CLI's own OPV export (cli/export/dicom.ts) of sample results, under the demo organisation's
// name, so their Patient IDs count as the clinic's own.

test.describe.configure({ timeout: 120_000 });

const FIELDS = 3;

/** A folder of OPV files (one in a subfolder, as a perimeter's export might nest them) of one new patient. */
function opvFolder(organisation: { id: string; name: string }) {
  const stamp = Date.now() % 1_000_000;
  const patient = { ...samplePatient(stamp), id: `imp${stamp}`, name: `Ida Import ${stamp}`, uniqueId: `IMP-${stamp}` };
  const context = exportContext(organisation, { timeZone: "Europe/Berlin" });
  const root = mkdtempSync(join(tmpdir(), "isopter-import-e2e-"));
  const folder = join(root, "perimeter-export");
  mkdirSync(join(folder, "2020"), { recursive: true });
  for (let k = 0; k < FIELDS; k++) {
    const record = exportRecord(patient, sampleMeasurement(patient, k));
    if (!record) throw new Error(`sample result ${k} is not valid`);
    writeFileSync(join(folder, k === 0 ? "2020" : "", `field-${k}.dcm`), opvFile(record, context));
  }
  return { root, folder, patient };
}

/** No text cut off anywhere on the page (e2e/clipping.ts), the dialogs included. */
async function expectNothingClipped(page: Page) {
  expect(await clippedHtml(page)).toEqual([]);
}

test("a manager imports a folder of OPV files, opens the new patient and finds the results; checked again in German", async ({ page }) => {
  await logIn(page, "manager");
  const organisation = await pageApi<{ id: string; name: string }>(page, "GET", "organisation/current");
  const { root, folder, patient } = opvFolder(organisation);
  const patientLink = `${patient.name} (${patient.uniqueId})`;
  try {
    await page.goto("/settings");
    const section = page.getByRole("region", { name: "Import results" });
    await expect(section.getByRole("button", { name: /Drop files or a folder here/ })).toBeVisible();
    await section.getByTestId("import-folder-input").setInputFiles(folder);
    await expect(section.getByText(`${FIELDS} files chosen`)).toBeVisible();

    // The call is held until the progress bar has been read: files done of all, as values.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/results/import", async (route) => {
      await held;
      await route.continue();
    });
    await section.getByRole("button", { name: `Import ${FIELDS} files` }).click();
    const progress = section.getByRole("progressbar", { name: "Importing the files" });
    await expect(progress).toHaveAttribute("aria-valuenow", "0");
    await expect(progress).toHaveAttribute("aria-valuemax", String(FIELDS));
    await expect(progress).toHaveAttribute("aria-valuetext", `0 of ${FIELDS} files`);
    release();

    const report = section.getByTestId("import-report");
    await expect(report.getByRole("heading", { name: "Import report" })).toBeVisible({ timeout: 30_000 });
    await expect(progress).toHaveCount(0);
    await expect(report.getByTestId("count-imported")).toContainText(String(FIELDS));
    await expect(report.getByTestId("count-patients-created")).toContainText("1");
    await expect(report.getByTestId("count-refused")).toContainText("0");
    await expect(report.getByTestId("count-duplicates")).toContainText("0");
    await expect(report.locator('.import-file[data-action="imported"]')).toHaveCount(FIELDS);
    await expect(report.getByText("perimeter-export/2020/field-0.dcm")).toBeVisible();
    await expectNothingClipped(page);
    await expectAccessible(page);
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, "import-report");

    // The patients list links the new patient to their page, where the imported results are listed.
    await report.locator(".import-patients").getByRole("link", { name: patientLink }).click();
    await expect(page).toHaveURL(/\/patient\/[^/]+\/perimetry\/all$/);
    await expect(page.getByRole("heading", { level: 1, name: patient.name })).toBeVisible();
    await expect(page.locator('li[id^="measurement-"]')).toHaveCount(FIELDS);
    await expectNothingClipped(page);
    await screenshot(page, "import-patient");

    // In German, on the patient's page: a check of the same folder finds every field there already.
    await page.evaluate(() => localStorage.setItem("language", "de"));
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await page.getByRole("button", { name: "Ergebnisse importieren" }).click();
    const dialog = page.getByRole("dialog", { name: "Ergebnisse importieren" });
    await expect(dialog.getByText(`Jedes Ergebnis muss zu ${patient.name} gehören`)).toBeVisible();
    await dialog.getByTestId("import-folder-input").setInputFiles(folder);
    await dialog.getByRole("checkbox", { name: "Nur prüfen (Probelauf)" }).check();
    await dialog.getByRole("button", { name: `${FIELDS} Dateien prüfen` }).click();
    const check = dialog.getByTestId("import-report");
    await expect(check.getByRole("heading", { name: "Was geschehen würde" })).toBeVisible({ timeout: 30_000 });
    await expect(check.getByText("Nur geprüft: Es wurde nichts gespeichert.")).toBeVisible();
    await expect(check.getByTestId("count-duplicates")).toContainText(String(FIELDS));
    await expect(check.getByTestId("count-imported")).toContainText("0");
    await expect(check.locator('.import-file[data-action="duplicate"]')).toHaveCount(FIELDS);
    await expectNothingClipped(page);
    await expectAccessible(page);
    // The dialog scrolls within the window: the picture is the window with the report in view.
    await check.scrollIntoViewIfNeeded();
    await page.screenshot({ path: "e2e/screenshots/import-dialog-de.png" });
    await dialog.getByRole("button", { name: "Schließen" }).click();
    await expect(page.locator('li[id^="measurement-"]')).toHaveCount(FIELDS);
    await screenshot(page, "import-patient-de");

    // Settings in German: the same import again is all duplicates and creates nobody.
    await page.goto("/settings");
    const einstellungen = page.getByRole("region", { name: "Ergebnisse importieren" });
    await einstellungen.getByTestId("import-folder-input").setInputFiles(folder);
    await einstellungen.getByRole("button", { name: `${FIELDS} Dateien importieren` }).click();
    const again = einstellungen.getByTestId("import-report");
    await expect(again.getByRole("heading", { name: "Importbericht" })).toBeVisible({ timeout: 30_000 });
    await expect(again.getByTestId("count-duplicates")).toContainText(String(FIELDS));
    await expect(again.getByTestId("count-patients-created")).toContainText("0");
    await expectNothingClipped(page);
    await screenshot(page, "import-report-de");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("a Humphrey perimeter's history of a clinic patient joins their 24-2 series: the pooled chart marks the change of device, and the series can be limited to one device", async ({
  page,
}) => {
  await logIn(page, "manager");
  interface P {
    id: string;
    name: string;
    uniqueId: string;
    birthdate: string;
    gender: number;
  }
  interface M {
    result: { pattern: number; eye: number; takenAt: string } | null;
  }
  // A demo patient with 24-2 results from the clinic's headsets in one eye.
  const patients = await pageApi<P[]>(page, "GET", "patient/all");
  let chosen: { patient: P; eye: number; first: string } | null = null;
  for (const p of patients) {
    const results = (await pageApi<M[]>(page, "GET", `perimetry/all?patientId=${p.id}`)).flatMap((m) =>
      m.result && m.result.pattern === 1 ? [m.result] : [],
    );
    const right = results.filter((r) => r.eye === 0).sort((a, b) => a.takenAt.localeCompare(b.takenAt));
    if (right.length >= 2) {
      chosen = { patient: p, eye: 0, first: right[0]!.takenAt };
      break;
    }
  }
  if (!chosen) throw new Error("no demo patient with two 24-2 results of the right eye");
  const { patient, first } = chosen;
  // Three earlier fields from a Humphrey Field Analyzer, one a year, before the first headset result.
  const root = mkdtempSync(join(tmpdir(), "isopter-hfa-e2e-"));
  const folder = join(root, "hfa-export");
  mkdirSync(folder);
  const [family, ...given] = patient.name.split(" ").reverse();
  for (let k = 1; k <= 3; k++) {
    const at = new Date(Date.parse(first) - k * 365 * 86_400_000).toISOString().slice(0, 19);
    writeFileSync(
      join(folder, `hfa-${k}.dcm`),
      humphreyOpv({
        pattern: "24-2",
        strategy: "SITA Standard",
        eye: "OD",
        takenAt: at,
        seed: k,
        patient: {
          id: patient.uniqueId,
          name: `${family}^${given.reverse().join(" ")}`,
          birthDate: patient.birthdate.replace(/-/g, ""),
          sex: patient.gender === 0 ? "F" : patient.gender === 1 ? "M" : "O",
        },
      }),
    );
  }
  try {
    await page.goto("/settings");
    const section = page.getByRole("region", { name: "Import results" });
    await section.getByTestId("import-folder-input").setInputFiles(folder);
    await section.getByRole("button", { name: "Import 3 files" }).click();
    const report = section.getByTestId("import-report");
    await expect(report.getByTestId("count-imported")).toContainText("3", { timeout: 30_000 });
    await expect(report.getByTestId("count-patients-created")).toContainText("0");

    await page.goto(`/patient/${patient.id}/perimetry/all`);
    await expect(page.getByText("Imported: Carl Zeiss Meditec HFA3 860").first()).toBeVisible();
    const progression = page.getByTestId("progression");
    const show = progression.getByRole("button", { name: "Show" });
    if (await show.isVisible()) await show.click();
    await progression.getByRole("button", { name: "24-2" }).click();
    // The change of device, marked on the chart and said in words beside it.
    const changes = progression.getByTestId("series-changes");
    await expect(changes).toContainText("Carl Zeiss Meditec HFA3 860 · SITA-Standard");
    await expect(changes).toContainText("Isopter headset");
    const devices = progression.getByTestId("series-device");
    await expect(devices.getByRole("button", { name: "Carl Zeiss Meditec HFA3 860" })).toBeVisible();
    await progression.scrollIntoViewIfNeeded();
    await screenshot(page, "import-pooled-series");
    // Limited to the Humphrey: the series holds its three fields, and no change is left to mark.
    await devices.getByRole("button", { name: "Carl Zeiss Meditec HFA3 860" }).click();
    await expect(devices.getByRole("button", { name: "Carl Zeiss Meditec HFA3 860" })).toHaveAttribute("aria-pressed", "true");
    await expect(progression.getByTestId("series-changes")).toHaveCount(0);
    await expect(progression.locator('.slopes li[data-eye="0"]')).toContainText("3 results");
    await expectNothingClipped(page);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("a user who is not a manager is offered no import", async ({ page }) => {
  await logIn(page, "user");
  await page.goto("/settings");
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Import results" })).toHaveCount(0);
  const patients = page.getByRole("list", { name: "Search results" });
  await page.goto("/home");
  await patients.getByRole("link").first().click();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: "Import results" })).toHaveCount(0);
});
