// npm run bench:export [-- --results 10000 --via api|http|both]
// Exports N synthetic 24-2 results (10 per patient) to CSV and to FHIR and prints results per second and peak memory.
// Each format runs in a fresh child process so its peak memory is its own. "api" feeds the export straight from an
// in-memory Api port (export cost alone: analysis, formatting, writing); "http" goes through the real HTTP adapter
// against a local stand-in backend (adds JSON, the contract's Schema decoding and the network stack).
// Aim (issue #10): at least 5,000 results/s under 200 MB.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryStorage } from "../adapters/storage/memory-storage.ts";
import { createHttpApi } from "../adapters/http/http-api.ts";
import { StorageKeys } from "../core/ports.ts";
import { Pattern } from "../core/model/enums.ts";
import { csvWriter } from "../cli/export/csv.ts";
import { fhirBundleWriter } from "../cli/export/fhir.ts";
import { runExport } from "../cli/export/run-export.ts";
import { fileSink } from "../cli/export/sink.ts";
import { fakeApi } from "../tests/cli/fixtures.ts";
import { FAKE_TOKEN, startFakeBackend } from "../tests/cli/fake-backend.ts";

const PER_PATIENT = 10;
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
};

interface Figures {
  format: string;
  via: string;
  results: number;
  /** RSS after loading, before the export: the runtime's own share (node, tsx, effect, the modules). */
  baselineRssMb: number;
  seconds: number;
  perSecond: number;
  peakRssMb: number;
  peakHeapMb: number;
  fileMb: number;
}

async function child(format: "csv" | "fhir", via: "api" | "http", results: number, backendUrl: string): Promise<Figures> {
  let peakRss = 0, peakHeap = 0;
  const sample = () => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  };
  const timer = setInterval(sample, 10);
  const clinic = { patients: Math.ceil(results / PER_PATIENT), resultsPerPatient: PER_PATIENT };
  const api =
    via === "http"
      ? (() => {
          const storage = memoryStorage();
          storage.session.set(StorageKeys.session.accessToken, FAKE_TOKEN);
          return createHttpApi({ apiBase: `${backendUrl}/api/`, storage });
        })()
      : fakeApi(clinic);
  const dir = mkdtempSync(join(tmpdir(), "isopter-bench-"));
  const file = join(dir, `export.${format}`);
  const sink = fileSink(file);
  const writer = format === "csv" ? csvWriter(sink, Pattern.P24_2) : fhirBundleWriter(sink);
  sample();
  const baselineRss = process.memoryUsage().rss;
  const started = performance.now();
  const summary = await runExport(api, { kind: "organisation" }, { reliableOnly: false }, writer, { patientDone: sample });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  sample();
  const fileMb = statSync(file).size / 2 ** 20;
  rmSync(dir, { recursive: true, force: true });
  return {
    baselineRssMb: round(baselineRss / 2 ** 20, 1),
    format, via, results: summary.results, seconds: round(seconds, 2), perSecond: Math.round(summary.results / seconds),
    peakRssMb: round(peakRss / 2 ** 20, 1), peakHeapMb: round(peakHeap / 2 ** 20, 1), fileMb: round(fileMb, 1),
  };
}

const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d;

function runChild(format: string, via: string, results: number, backendUrl: string): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const args = [...process.execArgv, import.meta.filename, "--child", format, "--via", via, "--results", String(results), "--backend", backendUrl];
    const p = spawn(process.execPath, args, {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    p.stdout.on("data", (c) => (out += c));
    p.on("close", (code) => (code === 0 ? resolve(JSON.parse(out) as Figures) : reject(new Error(`bench child ${format}/${via} exited ${code}`))));
  });
}

const results = Number(arg("results", "10000"));
const childFormat = arg("child", "");
if (childFormat) {
  process.stdout.write(JSON.stringify(await child(childFormat as "csv" | "fhir", arg("via", "api") as "api" | "http", results, arg("backend", ""))));
} else {
  const vias = arg("via", "both") === "both" ? ["api", "http"] : [arg("via", "api")];
  console.log(`isopter export bench: ${results} results of 24-2 (${PER_PATIENT} per patient), node ${process.version}`);
  // The stand-in backend runs here, in the parent, so the child's time and memory are the client's alone.
  const backend = vias.includes("http") ? await startFakeBackend({ patients: Math.ceil(results / PER_PATIENT), resultsPerPatient: PER_PATIENT }) : null;
  console.log("format  via    results  seconds  results/s  peak RSS MB  (before export)  peak heap MB  file MB");
  for (const via of vias)
    for (const format of ["csv", "fhir"]) {
      const f = await runChild(format, via, results, backend?.url ?? "");
      console.log(
        `${f.format.padEnd(6)}  ${f.via.padEnd(5)}  ${String(f.results).padStart(7)}  ${f.seconds.toFixed(2).padStart(7)}  ${String(f.perSecond).padStart(9)}  ${f.peakRssMb.toFixed(1).padStart(11)}  ${`(${f.baselineRssMb.toFixed(1)})`.padStart(15)}  ${f.peakHeapMb.toFixed(1).padStart(12)}  ${f.fileMb.toFixed(1).padStart(7)}`,
      );
    }
  await backend?.close();
  console.log("Aim: >= 5000 results/s, peak RSS < 200 MB.");
}
