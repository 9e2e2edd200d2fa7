import { expect, type Page, test } from "@playwright/test";
import WebSocket from "ws";
import { Eye, Pattern, Strategy } from "../core/model/enums.ts";
import type { MeasurementResult } from "../core/model/measurement-result.ts";
import { demoResult } from "../simulator/server/demo/results.ts";
import { dayFromNow } from "../tests/server/home-fixtures.ts";
import { clippedHtml } from "./clipping.ts";
import { expectAccessible, logIn, pageApi, screenshot } from "./support.ts";

// Home monitoring (issue 31): a clinician lends a headset to a patient for a weekly programme; sessions arrive from the
// lent headset (a headset on /device with its credential, uploading as the lent headset's outbox does); the patient's
// Home monitoring tab shows the programme and its adherence; the review queue flags an unreliable and an outlier
// result; the home page counts the flags and links to the queue; the clinician opens a result, marks one reviewed and
// books a visit for the other; the headset comes back. The patient is made for this journey and deleted at its end,
// and the headset's programme ended, so the demo organisation is left as it was for the other journeys.

test.setTimeout(120_000);

/** Noon UTC `days` from now (a session's window is a week from the programme's start day). */
const noon = (days: number) => `${dayFromNow(days)}T12:00:00.000Z`;

/** A 24-2 DS result of the right eye; `course` and `seed` shape the field. */
const field = (takenAt: string, eye: Eye, course: "healthy" | "advanced-glaucoma", seed: number): MeasurementResult =>
  demoResult({
    measurementId: "",
    patientId: "",
    takenAt,
    ageYears: 67,
    yearsIntoCourse: course === "healthy" ? 0 : 6,
    course,
    eye,
    pattern: Pattern.P24_2,
    strategy: Strategy.DS,
    deviceAlias: "Home",
    seed,
    birthdate: "1958-03-03",
  });

/** No catch trial failed: only the field itself can flag it. */
const reliable = (r: MeasurementResult): MeasurementResult => ({
  ...r,
  falsePositives: 0,
  falseNegatives: 0,
  fixationLosses: 0,
  catchTrials: {
    falseNegative: { errors: 0, presentations: 8 },
    falsePositive: { errors: 0, presentations: 8 },
    blindSpot: { errors: 0, presentations: 10 },
  },
});

/** Many false positives: a home patient who misunderstood the task. */
const unreliable = (r: MeasurementResult): MeasurementResult => ({
  ...r,
  falsePositives: 5,
  catchTrials: { ...r.catchTrials!, falsePositive: { errors: 5, presentations: 8 } },
});

/** The lent headset on /device: hello with its credential, then its uploads answered one by one. */
async function lentHeadset(origin: string, deviceSn: string, credential: string) {
  const frames: Array<Record<string, unknown>> = [];
  const socket = new WebSocket(`${origin.replace(/^http/, "ws")}/device`);
  socket.on("message", (data) => frames.push(JSON.parse(data.toString())));
  await new Promise<void>((resolve, reject) => (socket.once("open", () => resolve()), socket.once("error", reject)));
  socket.send(JSON.stringify({ type: "hello", protocolVersion: 2, deviceSn, firmware: "e2e-home-1", credential }));
  await expect.poll(() => frames.some((f) => f.type === "welcome")).toBe(true);
  const upload = async (standaloneId: string, resultId: string, result: MeasurementResult) => {
    socket.send(JSON.stringify({ type: "standaloneResult", standaloneId, resultId, result }));
    await expect.poll(() => frames.find((f) => f.type === "resultAccepted" && f.resultId === resultId)).toBeTruthy();
    return frames.find((f) => f.type === "resultAccepted" && f.resultId === resultId)!;
  };
  return { frames, upload, close: () => socket.close() };
}

/** Clipped texts of a page in a language, once `ready` shows (its data loaded). */
async function clippedIn(page: Page, language: string, path: string, ready: string) {
  await page.evaluate((l) => localStorage.setItem("language", l), language);
  await page.goto(path);
  await page.locator(ready).first().waitFor();
  return clippedHtml(page);
}

test("lend a headset, sessions arrive, the queue flags them, the clinician reviews and books a visit, the headset comes back", async ({
  page,
}) => {
  await logIn(page, "manager");
  const origin = new URL(page.url()).origin;
  const patient = await pageApi<{ id: string }>(page, "POST", "patient/register", {
    name: "Home Journey",
    uniqueId: `HJ-${Date.now().toString(36)}`,
    gender: 0,
    lang: "en",
    birthdate: "1958-03-03",
  });
  // A demo headset not in stand-alone mode (ending the programme clears the setting it wrote, leaving it as found).
  const lanes = await pageApi<Array<{ deviceSn: string; standaloneId: string | null }>>(page, "GET", "device/all");
  const deviceSn = lanes.filter((l) => /^VR-\d{4}$/.test(l.deviceSn) && l.standaloneId === null).at(-1)!.deviceSn;
  let programmeId: string | null = null;
  let headset: Awaited<ReturnType<typeof lentHeadset>> | null = null;
  try {
    // ---- Lend a headset: weekly, both eyes, 24-2 DS, from three weeks ago ----
    await page.goto(`/patient/${patient.id}/home-monitoring`);
    await expect(page.getByText("No home programmes")).toBeVisible();
    await page.getByRole("button", { name: "Lend a headset" }).click();
    const form = page.getByRole("form", { name: "Lend a headset" });
    await form.getByLabel(/^Headset/).selectOption(deviceSn);
    await form.getByLabel("Pattern").selectOption({ label: "24-2" });
    await form.getByLabel("Strategy").selectOption(String(Strategy.DS));
    await form.getByLabel("Eyes").selectOption({ label: "Both eyes" });
    await form.getByLabel("Frequency").selectOption("weekly");
    // A frequency of every N days outside 2 to 90 is refused by the server, naming the rule.
    await form.getByLabel("Frequency").selectOption("every");
    await form.getByLabel("Every how many days").fill("120");
    await form.getByLabel("Start date").fill(dayFromNow(-21));
    await form.getByLabel("End date").fill(dayFromNow(60));
    await form.getByLabel("Reminder time").fill("18:30");
    await form.getByRole("button", { name: "Lend headset" }).click();
    await expect(form.getByRole("alert")).toContainText("Refused by the rule: Every 2 to 90 days.");
    await form.getByLabel("Frequency").selectOption("weekly");
    await form.getByRole("button", { name: "Lend headset" }).click();
    const row = page.locator("tr[data-programme]");
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(deviceSn);
    await expect(row).toContainText("Weekly");
    await expect(row).toContainText("Active");
    programmeId = (await row.getAttribute("data-programme"))!;
    // Three weeks in: the three past sessions due (this week's is due once done or over), none done.
    await expect(row.locator(`[data-adherence="${programmeId}"]`)).toContainText("0 of 3 sessions done, 3 missed");

    // ---- Sessions arrive from the lent headset ----
    const enrolments = await pageApi<Array<{ id: string; deviceSn: string }>>(page, "GET", "device/enrolments");
    const enrolment = enrolments.find((e) => e.deviceSn === deviceSn)!;
    const issued = await pageApi<{ secret: { value: string } }>(page, "POST", `device/reenrol?id=${enrolment.id}`, {
      secret: "credential",
    });
    headset = await lentHeadset(origin, deviceSn, issued.secret.value);
    const setting = () => headset!.frames.find((f) => f.type === "standalone" && f.home);
    await expect.poll(() => setting()?.standaloneId).toBeTruthy();
    const standaloneId = setting()!.standaloneId as string;
    // The right eye each week, steady; then this week a field far worse than the three before (an outlier), and the
    // left eye this week with many false positives (unreliable); the left eye missed three sessions before.
    for (const [k, days] of [-20, -13, -6].entries())
      expect(
        (await headset.upload(standaloneId, `hj-r-${k}`, reliable(field(noon(days), Eye.Right, "healthy", 11 + k)))).refused,
      ).toBeUndefined();
    const now = new Date(Date.now() - 60_000).toISOString();
    expect(
      (await headset.upload(standaloneId, "hj-r-now", reliable(field(now, Eye.Right, "advanced-glaucoma", 21)))).refused,
    ).toBeUndefined();
    expect((await headset.upload(standaloneId, "hj-l-now", unreliable(field(now, Eye.Left, "healthy", 31)))).refused).toBeUndefined();

    await page.reload();
    await expect(row.locator(`[data-adherence="${programmeId}"]`)).toContainText("1 of 4 sessions done, 3 missed");
    await expect(row.locator(`[data-adherence="${programmeId}"]`)).toContainText("Adherence 25 %");
    await expectAccessible(page);
    await screenshot(page, "home-monitoring-patient");

    // ---- The home page counts the flags; each count opens the queue filtered by its flag ----
    await page.goto("/home");
    const counts = page.getByRole("region", { name: "Home results to review" });
    await expect(counts.locator('[data-flag-count="outlier"]')).toContainText(/Outlier: [1-9]/);
    await expect(counts.locator('[data-flag-count="unreliable"]')).toContainText(/Unreliable: [1-9]/);
    await counts.locator('[data-flag-count="outlier"]').click();
    await expect(page).toHaveURL(/\/review\?flag=outlier$/);
    const queue = page.getByRole("region", { name: "Home results, most urgent first" });
    const mine = queue.locator("tr[data-review-item]").filter({ hasText: "Home Journey" });
    const outlier = mine.filter({ has: page.locator('[data-flag="outlier"]') });
    await expect(outlier).toHaveCount(1);
    await expect(outlier).toContainText("Right eye");
    await expect(outlier.locator('[data-flag="outlier"]')).toContainText(
      /MD -?\d+\.\d\d dB against a median of -?\d+\.\d\d dB over the last 3 results/,
    );

    // All flags, by need: the left eye's unreliable result first.
    await queue.getByLabel("Flag").selectOption("all");
    await expect(mine.first()).toContainText("Left eye");
    await expect(mine.first().locator('[data-flag="unreliable"]')).toContainText("False positives 63 % (limit 15 %)");
    const unreliableItem = mine.filter({ has: page.locator('[data-flag="unreliable"]') });
    await expect(unreliableItem).toHaveCount(1);
    await expectAccessible(page);
    await screenshot(page, "review-queue");

    // The outlier opens on the result page with its series; back in the queue the clinician marks it reviewed.
    await outlier.getByRole("link", { name: "Open result" }).click();
    await expect(page).toHaveURL(new RegExp(`/patient/${patient.id}/perimetry/[^/?]+\\?scrollToMeasurement=1$`));
    await page.goBack();
    await outlier.getByRole("button", { name: "Mark reviewed" }).click();
    const mark = page.getByRole("alertdialog", { name: "Mark this result reviewed?" });
    await expect(mark).toContainText("Right eye");
    await mark.getByRole("button", { name: "Mark reviewed" }).click();
    await expect(outlier).toHaveCount(0);
    // The unreliable one: a note, a clinic visit booked on another headset of the clinic, then reviewed.
    await unreliableItem.getByRole("button", { name: "Add a note" }).click();
    const note = page.getByRole("dialog", { name: "Add a note" });
    await note.getByLabel("Note").fill("Many false positives: explain the task again by phone.");
    await note.getByRole("button", { name: "Save note" }).click();
    await expect(unreliableItem).toContainText("Note: Many false positives: explain the task again by phone.");
    await unreliableItem.getByRole("button", { name: "Book a clinic visit" }).click();
    const book = page.getByRole("alertdialog", { name: "Book a clinic visit?" });
    // Another of the clinic's headsets where there is one (a stack without virtual headsets has only VR-0001).
    const clinicHeadset = lanes.find((l) => /^VR-\d{4}$/.test(l.deviceSn) && l.deviceSn !== deviceSn)?.deviceSn ?? deviceSn;
    await book.getByLabel(/^Headset/).selectOption(clinicHeadset);
    await book.getByRole("button", { name: "Book visit" }).click();
    await expect(unreliableItem).toContainText("Clinic visit booked");
    await unreliableItem.getByRole("button", { name: "Mark reviewed" }).click();
    await page.getByRole("alertdialog", { name: "Mark this result reviewed?" }).getByRole("button", { name: "Mark reviewed" }).click();
    await expect(unreliableItem).toHaveCount(0);
    await queue.getByLabel("State").selectOption("reviewed");
    await expect(mine.filter({ has: page.locator('[data-flag="unreliable"], [data-flag="outlier"]') })).toHaveCount(2);
    await expect(unreliableItem).toContainText("Reviewed by manager");

    // Adherence: the journey's patient is below 80 %.
    await page.getByRole("link", { name: "Adherence" }).click();
    await expect(page).toHaveURL(/\/review\/adherence$/);
    await expect(page.locator(`tr[data-adherence-row="${patient.id}"]`)).toContainText("25 %");
    await screenshot(page, "review-adherence");

    // ---- Headset returned ----
    await page.goto(`/patient/${patient.id}/home-monitoring`);
    await row.getByRole("button", { name: "Headset returned" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Headset returned?" });
    await expect(confirm).toContainText(deviceSn);
    await confirm.getByRole("button", { name: "End the programme" }).click();
    await expect(row).toContainText("Headset returned");
    programmeId = null;

    // No text clipped in German and Turkish (long words, long sentences).
    for (const language of ["de", "tr"]) {
      expect(await clippedIn(page, language, `/patient/${patient.id}/home-monitoring`, "tr[data-programme]"), language).toEqual([]);
      await page.getByRole("button", { name: language === "de" ? "Brille verleihen" : "Gözlük ödünç ver" }).click();
      expect(await clippedHtml(page), `${language}: lend form`).toEqual([]);
      await screenshot(page, `home-monitoring-patient-${language}`);
      expect(await clippedIn(page, language, "/review?state=reviewed", "tr[data-review-item]"), language).toEqual([]);
      await screenshot(page, `review-queue-${language}`);
      expect(await clippedIn(page, language, "/review/adherence?below=90", "main table, main .empty"), language).toEqual([]);
      expect(await clippedIn(page, language, "/home", "[data-flag-count]"), language).toEqual([]);
      await screenshot(page, `home-counts-${language}`);
    }
    await page.evaluate(() => localStorage.setItem("language", "en"));
  } finally {
    headset?.close();
    if (programmeId) await pageApi(page, "PATCH", `home/programme/end?id=${programmeId}`, { reason: "ended" });
    await pageApi(page, "DELETE", `patient/trash?id=${patient.id}`);
    await pageApi(page, "DELETE", `patient/delete?id=${patient.id}`);
    // The visit booked for the journey's patient left the lanes with them.
    const after = await pageApi<Array<{ perimetries: Array<{ patientId: string }> }>>(page, "GET", "device/all");
    expect(after.flatMap((l) => l.perimetries).filter((m) => m.patientId === patient.id)).toEqual([]);
  }
});
