import { isAscii } from "node:buffer";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { once } from "node:events";
import {
  analyseCsvChunks,
  analyseSeriesRows,
  stageEachRow,
  summariseEachRow,
  type RowSummary,
  type SeriesOutput,
} from "../../core/analytics/analyse-csv.ts";
import { stageCodes, type FieldStages } from "../../core/analytics/stages/index.ts";
import { CsvError, parseVisualFieldsCsv, visualFieldRows } from "../../core/analytics/visualfields-csv.ts";
import { defineCommand, sharedOptions } from "../command.ts";
import { criteriaTable } from "./criteria-table.ts";
import { CliError, ExitCode } from "../exit-codes.ts";
import type { CliIo } from "../io.ts";
import { type Column, FixedColumn, formatTable, tableChunks, TextColumn } from "../table.ts";

// isopter analyse FILE.csv [--series] [--json]: core/analytics on a visualFields-layout CSV, no server.
// --json prints exactly what `npm run --silent analyse -- FILE.csv [--series]` prints: both write analyseCsvChunks, row
// by row as analysed (waiting while the output is full), so a large file keeps one row's speed and flat memory.

export function registerAnalyse(program: Command, io: CliIo): void {
  defineCommand(program, "analyse <file>", "analyse a visualFields-layout CSV (one test per row) without a server")
    .option("--series", "per id and eye with 3+ visits: MD regression (glr), pointwise (plr), PoPLR and every progression criterion", false)
    .option("--stages", "per row, the glaucoma stages too: Hodapp-Parrish-Anderson, GSS 2, AGIS and CIGTS scores", false)
    .addHelpText(
      "after",
      "\nColumns: id, eye (OD/OS/OU), date (YYYY-MM-DD), time, age, type, fpr, fnr, fl, duration, l1..ln (dB; a negative value is" +
        "\n'not seen'). The pattern follows from n: 54 = 24-2, 76 = 30-2, 68 = 10-2, 59 = G, 28 = S28, 40 = C40, 120 = Esterman." +
        "\nWithout a normative database for the pattern the deviation indices print as '-'." +
        "\n--json prints the same JSON as `npm run --silent analyse -- FILE.csv [--series]`." +
        "\n\nExample:\n  isopter analyse visits.csv --series\n  isopter export --all --pattern 24-2 --format csv --out all.csv && isopter analyse all.csv",
    )
    .action(async (file: string, opts: { series: boolean; stages: boolean }, cmd: Command) => {
      const shared = sharedOptions(cmd);
      if (opts.series && opts.stages) throw new CliError(ExitCode.BadArguments, "--stages stages each row: not with --series");
      const path = resolve(io.cwd, file);
      let text: string;
      try {
        text = readText(path);
      } catch (e) {
        throw new CliError(ExitCode.Failure, `${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
      }
      try {
        if (shared.json) {
          for (const chunk of analyseCsvChunks(text, { series: opts.series, stages: opts.stages }))
            if (!io.stdout.write(chunk)) await once(io.stdout, "drain");
          return;
        }
        if (opts.series) {
          io.stdout.write(seriesTable(analyseSeriesRows(parseVisualFieldsCsv(text))));
          return;
        }
        const table = opts.stages
          ? stagedRowsTable(stageEachRow(visualFieldRows(text)))
          : rowsTable(summariseEachRow(visualFieldRows(text)));
        if (table === null) io.stdout.write("No tests in the file.\n");
        else for (const chunk of tableChunks(table)) if (!io.stdout.write(chunk)) await once(io.stdout, "drain");
      } catch (e) {
        if (e instanceof CsvError) throw new CliError(ExitCode.Failure, `${file}: ${e.message}`);
        throw e;
      }
    });
}

/** The file as text: an ASCII file (nearly every CSV) is read byte for byte, in about half the time of decoding UTF-8. */
function readText(path: string): string {
  const bytes = readFileSync(path);
  return isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8");
}

const f = (v: number | null | undefined, digits: number) =>
  v === null || v === undefined || !Number.isFinite(v) ? "-" : v.toFixed(digits);

/** The table's columns: its numbers are kept as numbers (FixedColumn), not as 100,000 rows of cell texts. */
function rowsTable(analysed: Iterable<RowSummary>): Column[] | null {
  const id = new TextColumn("id", "left"),
    eye = new TextColumn("eye", "left"),
    date = new TextColumn("date", "left"),
    msens = new FixedColumn("MS dB", 2),
    tmd = new FixedColumn("MD dB", 2),
    psd = new FixedColumn("PSD dB", 2),
    gh = new FixedColumn("GH dB", 2),
    vfi = new FixedColumn("VFI %", 1),
    tdpUnder5 = new FixedColumn("TD p<5%", 0),
    pdpUnder5 = new FixedColumn("PD p<5%", 0);
  for (const r of analysed) {
    id.push(r.id);
    eye.push(r.eye);
    date.push(r.date);
    msens.push(r.msens);
    tmd.push(r.tmd);
    psd.push(r.psd);
    gh.push(r.gh);
    vfi.push(r.vfi);
    tdpUnder5.push(r.tdpUnder5);
    pdpUnder5.push(r.pdpUnder5);
  }
  return id.rows === 0 ? null : [id, eye, date, msens, tmd, psd, gh, vfi, tdpUnder5, pdpUnder5];
}

/** rowsTable with four columns more: HPA's stage, GSS 2's, the AGIS and CIGTS scores ('-' where not applicable). */
function stagedRowsTable(analysed: Iterable<{ summary: RowSummary; stages: FieldStages }>): Column[] | null {
  const hpa = new TextColumn("HPA", "left"),
    gss2 = new TextColumn("GSS 2", "left"),
    agis = new FixedColumn("AGIS", 0),
    cigts = new FixedColumn("CIGTS", 1);
  const summaries = function* () {
    for (const { summary, stages } of analysed) {
      const c = stageCodes(stages);
      hpa.push(c.hpa ?? "-");
      gss2.push(c.gss2 ?? "-");
      agis.push(c.agis);
      cigts.push(c.cigts);
      yield summary;
    }
  };
  const table = rowsTable(summaries());
  return table && [...table, hpa, gss2, agis, cigts];
}

function seriesTable(series: readonly SeriesOutput[]): string {
  if (series.length === 0) return "No id and eye with 3 or more visits.\n";
  return seriesIndicesTable(series) + criteriaTable(series);
}

function seriesIndicesTable(series: readonly SeriesOutput[]): string {
  return formatTable(
    ["id", "eye", "visits", "MD slope dB/y", "p", "points p<1% (falling)", "PoPLR S", "PoPLR p"],
    series.map((s) => [
      s.id,
      s.eye,
      String(s.nvisits),
      f(s.glr.slope, 2),
      f(s.glr.p, 4),
      String(s.plr.filter((r) => r !== null && r.slope < 0 && r.p < 0.01).length),
      f(s.poplr.csl, 2),
      f(s.poplr.cslp, 4),
    ]),
    ["left", "left"],
  );
}
