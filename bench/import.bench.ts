// npm run bench:import [-- --files 10000 --kind isopter|humphrey|mixed]
// Imports N DICOM OPV files from a folder with the real `isopter import DIR` (cli/bin.mjs, as a user starts it) into the
// simulator's server (PGlite on a data directory, the demo clinic), then the same folder again (every file a duplicate), and
// prints files per second, the CLI's peak RSS and the server's (this process) growth beside the load average; the
// memory aim is judged on the CLI's peak and the server's growth (what it held before the import is not the import's).
// The files: 10 per patient, new to the clinic (the first file of each creates the patient, the others match by ID);
// Isopter's own exports (24-2 and 10-2 of the CLI's exporter), Humphrey-style files built from the standard's
// attributes (tests/import/humphrey-opv.ts), or both alternating (default).
// Aims (issue 29): >= 500 files/s with peak memory under 300 MB; the same files again >= 2,000 files/s.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isopterProcess } from "./cli-process.ts";
import { loadAverage } from "./figures.ts";

const AIM_FIRST = 500;
const AIM_AGAIN = 2000;
const AIM_PEAK_MB = 300;
const PER_PATIENT = 10;

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
};
const files = Number(arg("files", "10000"));
const kind = arg("kind", "mixed") as "isopter" | "humphrey" | "mixed";
const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d;

/** The folder of OPV files; the organisation's name makes the Isopter files' IDs the clinic's own. */
async function writeFiles(dir: string, organisationName: string): Promise<void> {
  const [
    { exportContext },
    { opvFile },
    { exportRecord },
    { samplePatient, sampleMeasurement },
    { humphreyOpv },
    { Eye, Pattern, Strategy },
  ] = await Promise.all([
    import("../cli/export/context.ts"),
    import("../cli/export/dicom.ts"),
    import("../cli/export/record.ts"),
    import("../tests/cli/fixtures.ts"),
    import("../tests/import/humphrey-opv.ts"),
    import("../core/model/enums.ts"),
  ]);
  const context = exportContext({ id: "bench-source", name: organisationName }, { timeZone: "UTC" });
  for (let n = 0; n < files; n++) {
    const i = Math.floor(n / PER_PATIENT);
    const k = n % PER_PATIENT;
    const patient = { ...samplePatient(i), name: `Bench Patient ${i}`, uniqueId: `BENCH-${i}` };
    const humphrey = kind === "humphrey" || (kind === "mixed" && n % 2 === 1);
    const bytes = humphrey
      ? humphreyOpv({
          pattern: "24-2",
          strategy: "SITA Standard",
          eye: k % 2 === 0 ? "OD" : "OS",
          patient: { id: patient.uniqueId, name: `Patient ${i}^Bench`, birthDate: patient.birthdate.replace(/-/g, ""), sex: "F" },
          takenAt: new Date(Date.UTC(2015, 0, 1) + n * 3_600_000).toISOString().slice(0, 19),
          sopInstanceUid: `2.25.${1_000_000_000 + n}`,
        })
      : opvFile(
          exportRecord(
            patient,
            sampleMeasurement(patient, k, {
              pattern: k % 5 === 4 ? Pattern.P10_2 : Pattern.P24_2,
              eye: k % 2 === 0 ? Eye.Right : Eye.Left,
              strategy: Strategy.DS,
            }),
          )!,
          context,
        );
    writeFileSync(join(dir, `${String(n).padStart(6, "0")}.dcm`), bytes);
  }
}

/** Writes the folder in a child process, so the server's peak memory (this process) is the server's own. */
function writeFilesInChild(dir: string, organisationName: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const p = spawn(
      process.execPath,
      [
        ...process.execArgv,
        process.argv[1]!,
        "--write-files",
        dir,
        "--organisation",
        organisationName,
        "--files",
        String(files),
        "--kind",
        kind,
      ],
      {
        stdio: ["ignore", "inherit", "inherit"],
      },
    );
    p.on("error", reject);
    p.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`writing the files exited ${code}`))));
  });
}

async function main() {
  const { startServer } = await import("../simulator/server/server.ts");
  const { seedDemo } = await import("../simulator/server/demo/seed.ts");
  const { ProfileStore } = await import("../cli/profiles/profile-store.ts");
  const password = "Bench-Pass-123";
  // PGlite on a data directory, as `npm start` runs it: in memory, the database itself would be the server's growth.
  const dataDir = mkdtempSync(join(tmpdir(), "isopter-import-bench-data-"));
  const server = await startServer({ storage: { kind: "pglite", dataDir }, port: 0, webRoot: "/nonexistent-web-root" });
  await seedDemo(server.db, { password, headsets: 1, results: "fixtures" });
  const org = (await server.db.query<{ name: string }>("select name from organisations order by created_at limit 1"))[0]!.name;
  const login = await fetch(`${server.url}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "manager", password }),
  });
  const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
  const dir = mkdtempSync(join(tmpdir(), "isopter-import-bench-"));
  const home = mkdtempSync(join(tmpdir(), "isopter-bench-home-"));
  new ProfileStore(home).writeToken("bench", token);
  const started = performance.now();
  await writeFilesInChild(dir, org);
  console.log(`isopter import bench: ${files} OPV files (${kind}, ${PER_PATIENT} per patient), node ${process.version}`);
  console.log(`(files written in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  console.log(`aims (issue 29): >= ${AIM_FIRST} files/s, peak < ${AIM_PEAK_MB} MB; the same files again >= ${AIM_AGAIN} files/s`);

  let serverPeak = 0;
  const timer = setInterval(() => void (serverPeak = Math.max(serverPeak, process.memoryUsage.rss())), 20);
  const run = async (label: string, aim: number, expect: "imported" | "duplicates") => {
    const serverStart = process.memoryUsage.rss();
    serverPeak = serverStart;
    const cpu = process.cpuUsage();
    const r = await isopterProcess(["import", dir, "--json"], { ISOPTER_HOME: home, ISOPTER_PROFILE: "bench", ISOPTER_SERVER: server.url });
    const backend = process.cpuUsage(cpu);
    if (r.code !== 0) throw new Error(`isopter import exited ${r.code}: ${r.stderr.slice(0, 2000)}`);
    const summary = JSON.parse(r.stdout) as {
      files: number;
      imported: number;
      duplicates: number;
      refused: number;
      fields: number;
      patientsCreated: number;
    };
    const done = expect === "imported" ? summary.imported : summary.duplicates;
    if (done !== files) throw new Error(`${label}: expected ${files} ${expect}, got ${JSON.stringify(summary)}`);
    const perSecond = Math.round(files / r.seconds);
    // The server's growth during the import: what it held before (the demo clinic, PGlite's buffers) is not the import's.
    const serverGrowthMb = (serverPeak - serverStart) / 2 ** 20;
    const peak = Math.max(r.peakRssMb, serverGrowthMb);
    console.log(
      `${label.padEnd(12)} ${files} files in ${r.seconds.toFixed(2)} s = ${perSecond} files/s (aim ${aim}: ${perSecond >= aim ? "met" : "NOT met"}); ` +
        `CLI peak ${round(r.peakRssMb, 1)} MB, ${round(r.cpuSeconds, 2)} CPU s; server ${round(serverStart / 2 ** 20, 0)} -> ${round(serverPeak / 2 ** 20, 0)} MB (+${round(serverGrowthMb, 1)}), ` +
        `${round((backend.user + backend.system) / 1e6, 2)} CPU s (memory aim ${peak < AIM_PEAK_MB ? "met" : "NOT met"}); ` +
        `${summary.patientsCreated} patients created; load average ${loadAverage()}`,
    );
  };
  await run("first time", AIM_FIRST, "imported");
  await run("again", AIM_AGAIN, "duplicates");
  clearInterval(timer);
  await server.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}

const writeTo = arg("write-files", "");
if (writeTo) await writeFiles(writeTo, arg("organisation", ""));
else await main();
