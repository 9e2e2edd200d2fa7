// A throwaway Orthanc for the tests: Debian's `orthanc` (/usr/sbin/Orthanc, 1.10) with its DICOMweb plugin
// (`orthanc-dicomweb`, /usr/share/orthanc/plugins/libOrthancDicomWeb.so), both installed by scripts/system-deps.sh.
//
// Each call starts its own process with a generated configuration in a fresh temporary directory (storage, index and
// the config file), HTTP and DICOM on free ports: it never touches the system service (/etc/orthanc, ports 8042 and
// 4242, /var/lib/orthanc), which may run beside it or not at all. HTTP answers only on loopback ("RemoteAccessAllowed"
// false); with no `users` there is no authentication, with `users` ("RegisteredUsers") HTTP basic authentication is
// required (AuthenticationEnabled). Orthanc 1.10 has no bind address: both servers listen on every interface. Nothing
// outside this host can use the HTTP side; the DICOM side answers other hosts too while a test runs, and holds only
// the test's synthetic data, in a directory that stop() removes.
//
// The DICOM side (AE title ORTHANC unless told otherwise) answers any calling AE title: C-ECHO, C-STORE, C-FIND, C-GET
// and C-MOVE from unknown modalities are allowed ("DicomAlwaysAllowEcho", "DicomAlwaysAllowStore",
// "DicomAlwaysAllowFind", "DicomAlwaysAllowGet", "DicomAlwaysAllowMove"), and the called AE title is not checked
// ("DicomCheckCalledAet" false). A C-MOVE destination must be a known modality: pass `modalities` (name -> [AET, host,
// port], Orthanc's "DicomModalities") to register, say, Isopter's own storage SCP, or add one later with
// rest("/modalities/NAME", { method: "PUT", body: JSON.stringify({ AET, Host, Port }) }). Orthanc 1.10 knows OPV and
// Encapsulated PDF as storage SOP classes (no "UnknownSopClassAccepted" needed), provided the SCU proposes them (dcmtk's
// storescu does with -R); C-GET and C-MOVE retrieve by study (QueryRetrieveLevel STUDY with the StudyInstanceUID):
// tests/cli/export-stow.test.ts runs C-STORE, C-FIND, C-GET and C-MOVE against it with dcmtk's tools.
// DICOMweb answers at `${httpUrl}/dicom-web/` (QIDO-RS, STOW-RS, WADO-RS), Orthanc's REST API at `${httpUrl}/`
// (/system, /instances, /modalities, ...).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./dicom-tools.ts";

export const ORTHANC_BINARY = "/usr/sbin/Orthanc";

/** The DICOMweb plugin: Debian's stable symlink, else the versioned library it points to. */
export function dicomWebPlugin(): string | null {
  const link = "/usr/share/orthanc/plugins/libOrthancDicomWeb.so";
  if (existsSync(link)) return link;
  const dir = "/usr/lib/orthanc";
  const found = existsSync(dir) ? readdirSync(dir).find((f) => f.startsWith("libOrthancDicomWeb.so")) : undefined;
  return found ? join(dir, found) : null;
}

export interface OrthancOptions {
  /** Its own AE title (default ORTHANC). */
  readonly aet?: string;
  /** Known modalities (C-MOVE destinations): name -> [AET, host, port]. */
  readonly modalities?: Record<string, readonly [string, string, number]>;
  /** HTTP basic authentication: user -> password. Without it, no authentication (loopback only). */
  readonly users?: Record<string, string>;
}

export interface Orthanc {
  /** http://127.0.0.1:PORT, no trailing slash. */
  readonly httpUrl: string;
  /** `${httpUrl}/dicom-web`. */
  readonly dicomWebUrl: string;
  readonly dicomPort: number;
  readonly aet: string;
  /** Orthanc's REST API: GET (or the given method) of a path such as /instances, parsed as JSON; throws on a non-2xx. */
  rest<T = unknown>(path: string, init?: RequestInit): Promise<T>;
  /** What the process wrote on stdout and stderr so far (the last 64 kB). */
  log(): string;
  /** Ends the process (SIGKILL: nothing of it is kept) and removes its directory. */
  stop(): Promise<void>;
}

function configOf(dir: string, httpPort: number, dicomPort: number, aet: string, plugin: string, o: OrthancOptions) {
  const users = o.users ?? {};
  return {
    Name: "IsopterTest",
    StorageDirectory: join(dir, "storage"),
    IndexDirectory: join(dir, "storage"),
    Plugins: [plugin],
    HttpServerEnabled: true,
    HttpPort: httpPort,
    HttpThreadsCount: 8,
    HttpDescribeErrors: true,
    RemoteAccessAllowed: false,
    AuthenticationEnabled: Object.keys(users).length > 0,
    RegisteredUsers: users,
    WebDavEnabled: false,
    DicomServerEnabled: true,
    DicomAet: aet,
    DicomPort: dicomPort,
    DicomCheckCalledAet: false,
    DicomCheckModalityHost: false,
    DicomAlwaysAllowEcho: true,
    DicomAlwaysAllowStore: true,
    DicomAlwaysAllowFind: true,
    DicomAlwaysAllowGet: true,
    DicomAlwaysAllowMove: true,
    DicomModalitiesInDatabase: false,
    DicomModalities: Object.fromEntries(Object.entries(o.modalities ?? {}).map(([name, m]) => [name, [...m]])),
    DicomScuTimeout: 10,
    DicomThreadsCount: 2,
    SaveJobs: false,
    LoadPrivateDictionary: false,
    StorageAccessOnFind: "Always",
    DicomWeb: { Enable: true, Root: "/dicom-web/", EnableWado: false },
  };
}

/** Whether GET /system answers 200 (with the basic authentication `headers` carry, if any). */
async function answers(url: string, headers: Record<string, string>): Promise<boolean> {
  try {
    const response = await fetch(`${url}/system`, { headers, signal: AbortSignal.timeout(1_000) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

async function startOnce(o: OrthancOptions, plugin: string): Promise<Orthanc | { failed: string }> {
  const dir = mkdtempSync(join(tmpdir(), "isopter-orthanc-"));
  const [httpPort, dicomPort] = [await freePort(), await freePort()];
  if (httpPort === dicomPort) return (rmSync(dir, { recursive: true, force: true }), { failed: "the same port twice" });
  const aet = o.aet ?? "ORTHANC";
  const config = join(dir, "orthanc.json");
  writeFileSync(config, JSON.stringify(configOf(dir, httpPort, dicomPort, aet, plugin, o), null, 2));
  const child: ChildProcess = spawn(ORTHANC_BINARY, [config], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  const keep = (c: Buffer) => void (log = (log + c.toString()).slice(-65_536));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const spawnError = await new Promise<Error | null>((r) => {
    child.once("error", r);
    child.once("spawn", () => r(null));
  });
  if (spawnError) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`Orthanc did not start (${spawnError.message}): bash scripts/system-deps.sh installs orthanc`);
  }
  // A test run that dies without stop() leaves no Orthanc behind.
  const killOnExit = () => void child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const exited = new Promise<void>((r) => (child.exitCode !== null ? r() : child.once("exit", () => r())));
  // SIGKILL: a graceful stop takes Orthanc 3 s (its HTTP and DICOM servers poll), and its storage is thrown away anyway.
  const stop = async () => {
    process.removeListener("exit", killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const httpUrl = `http://127.0.0.1:${httpPort}`;
  const [user, password] = Object.entries(o.users ?? {})[0] ?? [];
  const headers: Record<string, string> =
    user !== undefined ? { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}` } : {};
  const deadline = Date.now() + 20_000;
  while (!(await answers(httpUrl, headers))) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      return { failed: log };
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Orthanc did not answer GET /system within 20 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  const rest = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const response = await fetch(`${httpUrl}${path}`, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } });
    const text = await response.text();
    if (!response.ok) throw new Error(`Orthanc ${init.method ?? "GET"} ${path}: ${response.status} ${text}`);
    return (text === "" ? undefined : JSON.parse(text)) as T;
  };
  const plugins = await rest<string[]>("/plugins");
  if (!plugins.includes("dicom-web")) {
    await stop();
    throw new Error(`Orthanc started without its DICOMweb plugin (${plugin}); plugins: ${plugins.join(", ")}\n${log}`);
  }
  return { httpUrl, dicomWebUrl: `${httpUrl}/dicom-web`, dicomPort, aet, rest, log: () => log, stop };
}

/**
 * Starts a fresh Orthanc and resolves once GET /system answers and the DICOMweb plugin is loaded. A port taken between
 * choosing it and Orthanc binding it (another process on a busy CI machine) makes Orthanc exit: it is started again on
 * other ports, up to three times.
 */
export async function startOrthanc(options: OrthancOptions = {}): Promise<Orthanc> {
  if (!existsSync(ORTHANC_BINARY)) throw new Error(`${ORTHANC_BINARY} is missing: bash scripts/system-deps.sh installs orthanc`);
  const plugin = dicomWebPlugin();
  if (plugin === null) throw new Error("the Orthanc DICOMweb plugin is missing: bash scripts/system-deps.sh installs orthanc-dicomweb");
  let last = "";
  for (let attempt = 0; attempt < 3; attempt++) {
    const started = await startOnce(options, plugin);
    if (!("failed" in started)) return started;
    last = started.failed;
  }
  throw new Error(`Orthanc exited at start three times; its last log:\n${last}`);
}
