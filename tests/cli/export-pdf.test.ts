import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Eye, Languages, Pattern, Strategy } from "../../core/model/enums.ts";
import { resolveText, sceneMessages } from "../../core/plots/message.ts";
import { walk, type GroupNode, type Scene } from "../../core/plots/scene.ts";
import { exportContext } from "../../cli/export/context.ts";
import { pageTranslate } from "../../cli/export/pdf/catalog.ts";
import { pdfWriter, reportPdf, reportScene } from "../../cli/export/pdf/report.ts";
import { fontRuns } from "../../cli/export/pdf/scene-to-pdfkit.ts";
import { exportRecord } from "../../cli/export/record.ts";
import { FAKE_ORGANISATION, sampleMeasurement, samplePatient } from "./fixtures.ts";

const context = exportContext(FAKE_ORGANISATION, { timeZone: "Europe/Istanbul" });

/** Poppler's pdftotext and pdffonts (poppler-utils, scripts/system-deps.sh) over a PDF. */
function poppler(tool: "pdftotext" | "pdffonts" | "pdfinfo", pdf: Buffer): string {
  const file = join(mkdtempSync(join(tmpdir(), "isopter-pdf-")), "page.pdf");
  writeFileSync(file, pdf);
  const run = spawnSync(tool, tool === "pdftotext" ? [file, "-"] : [file], { encoding: "utf8" });
  if (run.error) throw new Error(`${tool} did not run: bash scripts/system-deps.sh installs poppler-utils`);
  return run.stdout;
}

const plotRoles = (scene: Scene) =>
  walk(scene.nodes)
    .filter((n): n is GroupNode => n.kind === "group" && n.role !== undefined)
    .map((g) => g.role!);

describe("PDF report (core/plots' print scene with pdfkit)", () => {
  it("prints Turkish and Chinese names as written, with embedded fonts, one A4 page, readable by pdftotext", async () => {
    const tr = { ...samplePatient(3), name: "Şükrü Yılmaz" };
    const pdf = await reportPdf(exportRecord(tr, sampleMeasurement(samplePatient(3), 3, { strategy: Strategy.DS }))!, context);
    const text = poppler("pdftotext", pdf);
    expect(text).toContain("Şükrü Yılmaz");
    expect(text).toMatch(/Perimetry/);
    const info = poppler("pdfinfo", pdf);
    expect(info).toMatch(/Pages:\s+1/);
    expect(info).toMatch(/Page size:\s+595\.28 x 841\.89 pts \(A4\)/);
    const fonts = poppler("pdffonts", pdf).split("\n").slice(2).filter(Boolean);
    expect(fonts.length).toBeGreaterThan(0);
    for (const f of fonts) expect(f).toMatch(/ yes yes yes /); // embedded, subset, with a Unicode map

    const zh = { ...samplePatient(4), name: "李伟" };
    const chinese = await reportPdf(exportRecord(zh, sampleMeasurement(samplePatient(4), 1, { pattern: Pattern.G }))!, context);
    expect(poppler("pdftotext", chinese)).toContain("李伟");
    expect(poppler("pdffonts", chinese)).toContain("WenQuanYiMicroHei");
  });

  it("times on the clinic's clock with the offset; indices with p-values; the probability legend", async () => {
    const p = samplePatient(3);
    const r = exportRecord(p, sampleMeasurement(p, 3, { takenAt: "2024-03-05T09:30:00.000Z", strategy: Strategy.DS }))!;
    const text = poppler("pdftotext", await reportPdf(r, context));
    expect(text).toContain("2024-03-05 12:30 (UTC+03:00)");
    const nv = r.analysis().normative!;
    expect(text).toContain(`${nv.global.tmd.toFixed(2)} dB`);
    if (nv.globalLevels.tmd <= 0.05) expect(text).toContain(`p < ${nv.globalLevels.tmd * 100} %`);
    expect(text).toContain("< 0.5 %");
    expect(text).toContain("Probability");
  });

  it("the page holds the header, every plot with the pattern deviation values and the legends, and the gaze chart", () => {
    const p = samplePatient(3);
    const roles = plotRoles(reportScene(exportRecord(p, sampleMeasurement(p, 3))!, context));
    expect(roles).toEqual(
      expect.arrayContaining([
        "print.header",
        "print.plots",
        "print.gaze",
        "humphrey.patternDeviation",
        "humphrey.patternDeviationProbability",
        "humphrey.totalDeviation",
        "humphrey.thresholds",
        "octopus.grayscale",
        "legend.thresholdBands",
        "legend.totalDeviation",
        "gaze",
      ]),
    );
    const esterman = plotRoles(
      reportScene(
        exportRecord(p, sampleMeasurement(p, 1, { pattern: Pattern.Esterman, strategy: Strategy.OneLevel, eye: Eye.Binocular }))!,
        context,
      ),
    );
    expect(esterman).toContain("esterman");
    expect(esterman).not.toContain("humphrey.thresholds");
  });

  it("on G the header says the VFI is not a Humphrey-defined index there; on 24-2 it does not", async () => {
    const { resolveText } = await import("../../core/plots/message.ts");
    const p = samplePatient(3);
    const texts = (pattern: Pattern) =>
      walk(reportScene(exportRecord(p, sampleMeasurement(p, 1, { pattern, strategy: Strategy.DS }))!, context).nodes).flatMap((n) =>
        n.kind === "text" ? [resolveText(n.text)] : [],
      );
    expect(texts(Pattern.G)).toContain("VFI on G: not a Humphrey-defined index (computed the same way)");
    expect(texts(Pattern.P24_2).some((t) => t.includes("Humphrey-defined"))).toBe(false);
  });

  it("a result after an earlier one of the same eye and pattern has the web page's Difference (dB) plot; the first has none", async () => {
    const dir = mkdtempSync(join(tmpdir(), "isopter-pdf-series-"));
    const writer = pdfWriter(dir, context);
    const p = samplePatient(5);
    const at = (k: number, takenAt: string, eye: Eye, pattern: Pattern = Pattern.P24_2) =>
      exportRecord(p, sampleMeasurement(p, k, { takenAt, eye, pattern, strategy: Strategy.DS }))!;
    const records = [
      at(0, "2024-01-10T09:00:00.000Z", Eye.Right),
      at(1, "2024-01-10T09:20:00.000Z", Eye.Left), // the other eye: not a reference for the right eye
      at(2, "2024-02-10T09:00:00.000Z", Eye.Right, Pattern.G), // another pattern: neither
      at(3, "2024-07-10T09:00:00.000Z", Eye.Right),
    ];
    for (const r of records) await writer.write(r);
    await writer.end(); // a patient's pages are written at the next patient's first record, or at the end
    const { readdirSync, readFileSync } = await import("node:fs");
    const text = (r: (typeof records)[number]) =>
      poppler("pdftotext", readFileSync(join(dir, readdirSync(dir).find((f) => f.includes(r.test.id))!)));
    expect(text(records[0]!)).not.toContain("Difference (dB)");
    expect(text(records[1]!)).not.toContain("Difference (dB)");
    expect(text(records[2]!)).not.toContain("Difference (dB)");
    const last = text(records[3]!);
    expect(last).toContain("Difference (dB)");
  });

  it("text falls back to the second font only for characters the first lacks", () => {
    const latin = (cp: number) => cp < 0x2e80;
    expect(fontRuns("Li 李伟 (Şükrü)", latin)).toEqual([
      { text: "Li ", fallback: false },
      { text: "李伟", fallback: true },
      { text: " (Şükrü)", fallback: false },
    ]);
  });

  it("--language: the page and its document title speak the clinic's language (German here), its PDF says so; English stays the default", async () => {
    const p = samplePatient(3);
    const r = () => exportRecord(p, sampleMeasurement(p, 3, { strategy: Strategy.DS }))!;
    const german = await reportPdf(r(), exportContext(FAKE_ORGANISATION, { timeZone: "Europe/Berlin", language: "de" }));
    const text = poppler("pdftotext", german);
    expect(text).toContain("Patienten-ID");
    expect(text).not.toContain("Patient ID");
    expect(german.toString("latin1")).toContain("/Lang (de)");
    expect(poppler("pdfinfo", german)).toMatch(/^Title:\s+Perimetrie 24-2 O[DS] /m);
    const english = await reportPdf(r(), context);
    expect(poppler("pdftotext", english)).toContain("Patient ID");
    expect(poppler("pdfinfo", english)).toMatch(/^Title:\s+Perimetry 24-2 O[DS] /m);
    const chinese = await reportPdf(r(), exportContext(FAKE_ORGANISATION, { language: "chi" }));
    expect(chinese.toString("latin1")).toContain("/Lang (zh-Hans)");
  });

  it("every text of the printed page is in each of the ten languages' catalogs, placeholders filled", () => {
    const p = samplePatient(3);
    const records = [
      exportRecord(p, sampleMeasurement(p, 3, { strategy: Strategy.DS }))!,
      exportRecord(p, sampleMeasurement(p, 1, { pattern: Pattern.G }))!,
    ];
    const messages = records.flatMap((r) => sceneMessages(reportScene(r, context)));
    for (const language of Languages.filter((l) => l !== "en")) {
      const translate = pageTranslate(language)!;
      const missing = messages.filter((m) => translate(m) === undefined).map((m) => `${m.id} "${m.default}"`);
      expect(missing, language).toEqual([]);
      // As the page draws them: nested messages resolved first, then the placeholders filled.
      for (const m of messages) expect(resolveText(m, translate), `${language} ${m.id}`).not.toMatch(/\{\w+\}|\[object/);
    }
  });

  it("the same result gives the same bytes (no clock, no random id)", async () => {
    const p = samplePatient(3);
    const r = () => exportRecord(p, sampleMeasurement(p, 2))!;
    expect((await reportPdf(r(), context)).equals(await reportPdf(r(), context))).toBe(true);
  });
});
