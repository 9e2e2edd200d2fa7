// The real DICOM tools the tests run: Debian's dicom3tools `dciodvfy` (IOD validator) and dcmtk's `storescp` (a
// storage receiver). scripts/system-deps.sh installs both.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import dcmjs from "dcmjs";

export interface Verdict {
  readonly errors: string[];
  readonly warnings: string[];
}

/** dciodvfy's errors and warnings for one file (it prints them on stderr, one per line). */
export function dciodvfy(file: string): Verdict {
  const run = spawnSync("dciodvfy", [file], { encoding: "utf8" });
  if (run.error) throw new Error(`dciodvfy did not run (${run.error.message}): bash scripts/system-deps.sh installs dicom3tools`);
  const lines = `${run.stdout}\n${run.stderr}`.split("\n");
  return {
    errors: lines.filter((l) => l.startsWith("Error")),
    warnings: lines.filter((l) => l.startsWith("Warning")),
  };
}

/** dciodvfy without blocking the event loop (a server in the same process keeps answering meanwhile). */
export function dciodvfyAsync(file: string): Promise<Verdict> {
  return new Promise((resolve, reject) => {
    const child = spawn("dciodvfy", [file], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout!.on("data", (c) => (out += c));
    child.stderr!.on("data", (c) => (out += c));
    child.once("error", (e) => reject(new Error(`dciodvfy did not run (${e.message}): bash scripts/system-deps.sh installs dicom3tools`)));
    child.once("close", () => {
      const lines = out.split("\n");
      resolve({ errors: lines.filter((l) => l.startsWith("Error")), warnings: lines.filter((l) => l.startsWith("Warning")) });
    });
  });
}

/** A file's dataset as dcmjs reads it (naturalized names). */
export function readDicom(buffer: Buffer): { meta: any; ds: any } {
  const dict = dcmjs.data.DicomMessage.readFile(
    buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer,
  );
  return {
    meta: dcmjs.data.DicomMetaDictionary.naturalizeDataset(dict.meta),
    ds: dcmjs.data.DicomMetaDictionary.naturalizeDataset(dict.dict),
  };
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface Receiver {
  readonly aet: string;
  readonly port: number;
  readonly dir: string;
  /** Files received so far. */
  received(): string[];
  stop(): Promise<void>;
}

/**
 * A storescp association profile (dcmtk's --config-file format, as /etc/dcmtk/storescp.cfg) that accepts only the
 * given SOP classes (by UID), in explicit or implicit VR little endian: a PACS that stores some kinds of object and
 * refuses the others.
 */
function acceptOnlyConfig(sopClasses: readonly string[]): string {
  return [
    "[[TransferSyntaxes]]",
    "[Uncompressed]",
    "TransferSyntax1 = LocalEndianExplicit",
    "TransferSyntax2 = LittleEndianImplicit",
    "[[PresentationContexts]]",
    "[Only]",
    "PresentationContext1 = VerificationSOPClass\\Uncompressed",
    ...sopClasses.map((uid, i) => `PresentationContext${i + 2} = ${uid}\\Uncompressed`),
    "[[Profiles]]",
    "[OnlyThese]",
    "PresentationContexts = Only",
    "",
  ].join("\n");
}

/**
 * dcmtk's storescp on 127.0.0.1 and a free port, storing into a fresh directory. `refuse` makes it refuse every
 * association (a PACS that will not talk to us); `acceptOnly` makes it accept only those SOP classes (UIDs).
 */
export async function startStorescp(options: { refuse?: boolean; acceptOnly?: readonly string[] } = {}): Promise<Receiver> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "storescp-"));
  const aet = "STORESCP";
  const profile: string[] = [];
  if (options.acceptOnly) {
    const config = join(mkdtempSync(join(tmpdir(), "storescp-cfg-")), "storescp.cfg");
    writeFileSync(config, acceptOnlyConfig(options.acceptOnly));
    profile.push("--config-file", config, "OnlyThese");
  }
  const args = ["--aetitle", aet, "--output-directory", dir, ...profile, ...(options.refuse ? ["--refuse"] : []), port.toString()];
  const child: ChildProcess = spawn("storescp", args, { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout!.on("data", (c) => (log += c));
  child.stderr!.on("data", (c) => (log += c));
  const spawned = await new Promise<Error | null>((r) => {
    child.once("error", r);
    child.once("spawn", () => r(null));
  });
  if (spawned) throw new Error(`storescp did not start (${spawned.message}): bash scripts/system-deps.sh installs dcmtk`);
  // Listening once a connection gets through.
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((r) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => (socket.destroy(), r(true)));
      socket.once("error", () => r(false));
    });
    if (up) break;
    if (child.exitCode !== null) throw new Error(`storescp exited: ${log}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    aet,
    port,
    dir,
    received: () => readdirSync(dir).map((f) => join(dir, f)),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
