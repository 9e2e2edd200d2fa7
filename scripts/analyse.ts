// npm run --silent analyse -- FILE.csv [--series]
// Reads a visualFields-layout CSV and prints JSON (see core/analytics/analyse-csv.ts for the shapes). Only file I/O
// lives here; parsing, analysis and formatting are in core so `isopter analyse` (cli/) prints the same.
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { analyseCsvChunks } from "../core/analytics/analyse-csv.ts";
import { CsvError } from "../core/analytics/visualfields-csv.ts";

const args = process.argv.slice(2);
const series = args.includes("--series");
const files = args.filter((a) => a !== "--series" && a !== "--");
if (files.length !== 1 || args.some((a) => a.startsWith("--") && a !== "--series" && a !== "--")) {
  process.stderr.write("usage: npm run --silent analyse -- FILE.csv [--series]\n");
  process.exit(2);
}
try {
  // Row by row as analysed, waiting while the output is full (core/analytics/analyse-csv.ts analyseCsvChunks).
  for (const chunk of analyseCsvChunks(readFileSync(files[0]!, "utf8"), { series }))
    if (!process.stdout.write(chunk)) await once(process.stdout, "drain");
} catch (e) {
  const msg =
    e instanceof CsvError ? `${files[0]}: ${e.message}` : e instanceof Error && "code" in e ? `${files[0]}: ${e.message}` : String(e);
  process.stderr.write(`analyse: ${msg}\n`);
  process.exit(1);
}
