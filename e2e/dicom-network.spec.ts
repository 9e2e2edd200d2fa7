import { expect, test, type Page } from "@playwright/test";
import { clippedHtml } from "./clipping.ts";
import { expectAccessible, laneOf, logIn, pageApi, screenshot, type ServerLane } from "./support.ts";
import { freePort, startWorklistProvider, today, type WorklistProvider } from "../tests/server/worklist-provider.ts";

// "DICOM network" in settings (issue 29 §3): the demo manager sets the PACS (an AE title of 17 characters is refused
// at the field, then fixed), saves, finds it kept after a reload and learns from "Test connection" that nothing
// answers at that port; then points the worklist at a real dcmtk wlmscpfs this journey starts, with its files written
// here, queues new steps on VR-0001, checks the worklist ("Check only": the step would be queued, its patient created),
// queries it for real (queued) and finds the measurement on the headset's lane in the technician view. In German the
// same step is seen before. At the end both are set back to none, so the other journeys find no DICOM network.

test.describe.configure({ timeout: 120_000 });

const PROVIDER_AE = "ISOPTER_WL";
const STATION_AE = "PERIMETRY1";
const HEADSET = "VR-0001";
const AE_MESSAGE = "An AE title is 1 to 16 characters: letters, digits, spaces and punctuation except the backslash, not only spaces.";

/** No text cut off anywhere on the page (e2e/clipping.ts). */
async function expectNothingClipped(page: Page) {
  expect(await clippedHtml(page)).toEqual([]);
}

/** The settings as none, straight through the API (the journey's last step, and its clean-up after a failure). */
async function noDicomNetwork(page: Page) {
  const token = await page.evaluate(() => sessionStorage.getItem("accessToken"));
  const res = await page.request.fetch("/api/dicom/settings", {
    method: "PUT",
    headers: { authorization: `Bearer ${token}` },
    data: { worklist: null, pacs: null },
  });
  return res.ok();
}

/** The queued measurements of the worklist's patient and the patient go, so the other journeys find VR-0001's lane as
 * the demo left it. */
async function removeQueued(page: Page, patientId: string) {
  const lanes = await pageApi<ServerLane[]>(page, "GET", "device/all");
  for (const m of lanes.flatMap((l) => l.perimetries).filter((m) => m.patientId === patientId)) {
    await pageApi(page, "DELETE", `perimetry/trash?id=${m.id}`);
    await pageApi(page, "DELETE", `perimetry/delete?id=${m.id}`);
  }
  await pageApi(page, "DELETE", `patient/trash?id=${patientId}`);
  await pageApi(page, "DELETE", `patient/delete?id=${patientId}`);
  expect(
    (await pageApi<ServerLane[]>(page, "GET", "device/all")).flatMap((l) => l.perimetries).some((m) => m.patientId === patientId),
  ).toBe(false);
}

test("a manager sets the PACS and the worklist, tests the connection, checks and queries the worklist, and finds the step queued on the headset", async ({
  page,
}) => {
  await logIn(page, "manager");
  const stamp = Date.now() % 1_000_000;
  const patient = { id: `WLE2E-${stamp}`, name: `Jürgen Lindqvist ${stamp}` };
  let provider: WorklistProvider | null = null;
  let queuedPatientId: string | null = null;
  try {
    provider = await startWorklistProvider(PROVIDER_AE);
    provider.write({
      file: `e2e-${stamp}`,
      patientId: patient.id,
      name: `Lindqvist ${stamp}^Jürgen`,
      birthdate: "19580214",
      sex: "M",
      accession: `A-E2E-${stamp}`,
      stepId: `SPS-E2E-${stamp}`,
      station: STATION_AE,
      day: today(),
      time: "090000",
      codes: [
        ["DCM", "111800", "Visual Field 24-2 Test Pattern"],
        ["DCM", "111826", "Visual Field Dynamic Test Strategy"],
      ],
      description: "Visual field OD",
    });
    // Later that day, a protocol Isopter does not know: refused by name, listed first.
    provider.write({
      file: `e2e-${stamp}-unknown`,
      patientId: `${patient.id}-2`,
      name: `Okafor ${stamp}^Ada`,
      birthdate: "19610301",
      sex: "F",
      accession: `A-E2E-${stamp}-2`,
      stepId: `SPS-E2E-${stamp}-2`,
      station: STATION_AE,
      day: today(),
      time: "103000",
      codes: [["99RIS", "VF-XYZ", "Perimetry special"]],
      description: "Perimetry",
    });
    const pacsPort = await freePort();

    await page.goto("/settings");
    const section = page.getByRole("region", { name: "DICOM network" });
    await expect(section.getByRole("heading", { level: 2, name: "DICOM network" })).toBeVisible();

    // ---- PACS: a 17-character AE title is refused at the field, then fixed ----
    const pacs = section.getByRole("region", { name: "PACS" });
    await pacs.getByRole("switch", { name: "Use a PACS" }).click();
    const pacsAe = pacs.getByRole("textbox", { name: "PACS AE title" });
    await pacsAe.fill("ORTHANC_ARCHIVE_1");
    await pacsAe.press("Tab");
    const aeError = pacs.getByText(AE_MESSAGE);
    await expect(aeError).toBeVisible();
    await expect(pacsAe).toHaveAttribute("aria-invalid", "true");
    expect(((await pacsAe.getAttribute("aria-describedby")) ?? "").split(" ")).toContain(await aeError.getAttribute("id"));
    await pacs.scrollIntoViewIfNeeded();
    await screenshot(page, "dicom-network-ae-title");
    await pacsAe.fill("ORTHANC");
    await pacsAe.press("Tab");
    await expect(aeError).toHaveCount(0);
    await pacs.getByRole("textbox", { name: "Host", exact: true }).fill("127.0.0.1");
    await pacs.getByRole("textbox", { name: "Port", exact: true }).fill(String(pacsPort));
    await expect(pacs.getByRole("textbox", { name: "Station AE title (Isopter's)" })).toHaveValue("ISOPTER");
    await pacs.getByRole("button", { name: "Save" }).click();
    await expect(pacs.getByText("Saved.")).toBeVisible();

    // Kept: after a reload the card shows what was saved.
    await page.reload();
    await expect(pacs.getByRole("switch", { name: "Use a PACS" })).toHaveAttribute("aria-checked", "true");
    await expect(pacs.getByRole("textbox", { name: "Host", exact: true })).toHaveValue("127.0.0.1");
    await expect(pacs.getByRole("textbox", { name: "Port", exact: true })).toHaveValue(String(pacsPort));
    await expect(pacs.getByRole("textbox", { name: "PACS AE title" })).toHaveValue("ORTHANC");
    await expect(pacs.getByRole("radio", { name: "C-GET" })).toBeChecked();

    // Nothing listens at that port: the test says so in the server's words, naming the PACS.
    await pacs.getByRole("button", { name: "Test connection" }).click();
    const echo = pacs.getByTestId("pacs-connection-result");
    await expect(echo).toContainText("The PACS did not answer the test.", { timeout: 30_000 });
    await expect(echo).toContainText(`ORTHANC@127.0.0.1:${pacsPort} cannot be reached`);

    // ---- Worklist: the real provider, steps queued on VR-0001 ----
    const worklist = section.getByRole("region", { name: "Worklist" });
    await worklist.getByRole("switch", { name: "Use a worklist provider" }).click();
    await worklist.getByRole("textbox", { name: "Host", exact: true }).fill("127.0.0.1");
    await worklist.getByRole("textbox", { name: "Port", exact: true }).fill(String(provider.port));
    await worklist.getByRole("textbox", { name: "Provider's AE title" }).fill(PROVIDER_AE);
    await worklist.getByRole("textbox", { name: "Station AE title (Isopter's)" }).fill(STATION_AE);
    await expect(worklist.getByRole("textbox", { name: "Modality" })).toHaveValue("OPV");
    await worklist.getByRole("combobox", { name: "Queue new steps on" }).selectOption(HEADSET);
    // A code of the clinic's own: the patterns and strategies as the measurement form names and offers them.
    await worklist.getByRole("button", { name: "Add a code" }).click();
    await worklist.getByRole("textbox", { name: "Coding scheme, code 1" }).fill("99CLINIC");
    await worklist.getByRole("textbox", { name: "Code value, code 1" }).fill("GLAUC-FU");
    await worklist.getByRole("combobox", { name: "Pattern, code 1" }).selectOption({ label: "G" });
    await worklist.getByRole("combobox", { name: "Strategy, code 1" }).selectOption({ label: "SORS" });
    await worklist.getByRole("button", { name: "Save" }).click();
    await expect(worklist.getByText("Saved.")).toBeVisible();
    expect(await pageApi(page, "GET", "dicom/settings")).toMatchObject({
      worklist: {
        enabled: false,
        provider: { host: "127.0.0.1", port: provider.port, calledAeTitle: PROVIDER_AE, callingAeTitle: STATION_AE },
        deviceSn: HEADSET,
        modality: "OPV",
        localCodes: [{ scheme: "99CLINIC", value: "GLAUC-FU", pattern: 2, strategy: 2 }],
      },
      pacs: { node: { host: "127.0.0.1", port: pacsPort, calledAeTitle: "ORTHANC", callingAeTitle: "ISOPTER" }, retrieve: "get" },
    });

    await worklist.getByRole("button", { name: "Test connection" }).click();
    await expect(worklist.getByTestId("worklist-connection-result")).toContainText("The worklist provider answered.", { timeout: 30_000 });

    // Check only: the step would be queued and its patient created; nothing is written.
    const lanesBefore = (await pageApi<ServerLane[]>(page, "GET", "device/all")).find((l) => l.deviceSn === HEADSET)!.perimetries.length;
    await worklist.getByRole("checkbox", { name: "Check only (dry run)" }).check();
    await worklist.getByRole("button", { name: "Check the worklist" }).click();
    const report = worklist.getByTestId("worklist-report");
    await expect(report.getByRole("heading", { name: "What would happen" })).toBeVisible({ timeout: 30_000 });
    await expect(report.getByText("Check only: nothing was written.")).toBeVisible();
    const rows = report.locator("tr[data-action]");
    // Refused first, with the server's reason naming the code.
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toHaveAttribute("data-action", "refused");
    await expect(rows.first()).toContainText('99RIS VF-XYZ "Perimetry special"');
    const step = rows.filter({ hasText: `(accession A-E2E-${stamp})` });
    await expect(step).toHaveAttribute("data-action", "queued");
    await expect(step).toContainText("Would be queued");
    await expect(step).toContainText(`${patient.name} (${patient.id})`);
    await expect(step).toContainText("would be created");
    await expect(step).toContainText("Right eye");
    await expect(step).toContainText("24-2");
    await expect(step).toContainText("Dynamic");
    await expect(step).toContainText(`step SPS-E2E-${stamp} (accession A-E2E-${stamp})`);
    expect((await pageApi<ServerLane[]>(page, "GET", "device/all")).find((l) => l.deviceSn === HEADSET)!.perimetries.length).toBe(
      lanesBefore,
    );
    await expectNothingClipped(page);
    await expectAccessible(page);
    await worklist.scrollIntoViewIfNeeded();
    await screenshot(page, "dicom-network");

    // For real: queued on the headset, the patient created and linked.
    await worklist.getByRole("checkbox", { name: "Check only (dry run)" }).uncheck();
    await worklist.getByRole("button", { name: "Query now" }).click();
    await expect(report.getByRole("heading", { name: "Query report" })).toBeVisible({ timeout: 30_000 });
    await expect(step).toContainText("Queued");
    const link = step.getByRole("link", { name: `${patient.name} (${patient.id})` });
    await expect(link).toBeVisible();
    queuedPatientId = String(await link.getAttribute("href")).split("/")[2]!;
    await expectNothingClipped(page);
    await worklist.screenshot({ path: "e2e/screenshots/dicom-network-worklist.png" });
    // On a small screen (below 640 px) the card is one column and nothing is cut off.
    await page.setViewportSize({ width: 600, height: 900 });
    await expectNothingClipped(page);
    await worklist.screenshot({ path: "e2e/screenshots/dicom-network-worklist-narrow.png" });
    await page.setViewportSize({ width: 1280, height: 800 });

    // The technician view: the measurement on VR-0001's lane.
    await page.goto("/technician");
    const card = laneOf(page, HEADSET)
      .locator("[data-card-id]")
      .filter({ hasText: `Test ${patient.name}` });
    await expect(card).toHaveCount(1);
    await expect(card).toContainText("24-2");
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, "dicom-network-queued");

    // ---- In German: the same step is seen before; then both set back to none ----
    await page.evaluate(() => localStorage.setItem("language", "de"));
    await page.goto("/settings");
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    const netz = page.getByRole("region", { name: "DICOM-Netzwerk" });
    const liste = netz.getByRole("region", { name: "Worklist" });
    await liste.getByRole("checkbox", { name: "Nur prüfen (Probelauf)" }).check();
    await liste.getByRole("button", { name: "Worklist prüfen" }).click();
    const bericht = liste.getByTestId("worklist-report");
    await expect(bericht.getByRole("heading", { name: "Was geschehen würde" })).toBeVisible({ timeout: 30_000 });
    await expect(bericht.locator("tr[data-action]").filter({ hasText: `(accession A-E2E-${stamp})` })).toContainText("Bereits gesehen");
    await netz.getByRole("region", { name: "PACS" }).getByRole("button", { name: "Verbindung testen" }).click();
    await expect(netz.getByTestId("pacs-connection-result")).toContainText("Das PACS hat auf den Test nicht geantwortet.", {
      timeout: 30_000,
    });
    await expectNothingClipped(page);
    await expectAccessible(page);
    await screenshot(page, "dicom-network-de");
    await liste.screenshot({ path: "e2e/screenshots/dicom-network-worklist-de.png" });

    await liste.getByRole("switch", { name: "Worklist-Anbieter verwenden" }).click();
    await liste.getByRole("button", { name: "Speichern" }).click();
    await expect(liste.getByText("Kein Worklist-Anbieter eingerichtet.")).toBeVisible();
    const archiv = netz.getByRole("region", { name: "PACS" });
    await archiv.getByRole("switch", { name: "PACS verwenden" }).click();
    await archiv.getByRole("button", { name: "Speichern" }).click();
    await expect(archiv.getByText("Kein PACS eingerichtet.")).toBeVisible();
    expect(await pageApi(page, "GET", "dicom/settings")).toEqual({ worklist: null, pacs: null });
    await removeQueued(page, queuedPatientId);
    queuedPatientId = null;
  } finally {
    await noDicomNetwork(page).catch(() => false);
    await page.evaluate(() => localStorage.removeItem("language")).catch(() => undefined);
    if (queuedPatientId !== null) await removeQueued(page, queuedPatientId).catch(() => undefined);
    await provider?.stop();
  }
});

test("a user who is not a manager is offered no DICOM network", async ({ page }) => {
  await logIn(page, "user");
  await page.goto("/settings");
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  await expect(page.getByRole("region", { name: "DICOM network" })).toHaveCount(0);
});
