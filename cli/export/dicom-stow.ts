import { readFile } from "node:fs/promises";
import { randomUUID } from "node:crypto";
import type { StoreOutcome } from "./dicom-send.ts";

// STOW-RS (DICOM PS3.18 10.5): the exported Part 10 files POSTed to `<URL>/studies` as multipart/related;
// type="application/dicom", a batch of files per request, each answered in the response's dataset (application/dicom+json):
// the Referenced SOP Sequence (0008,1199) names what was stored, the Failed SOP Sequence (0008,1198) what was not,
// with its Failure Reason (0008,1197). The outcomes are --send's (the reasons are C-STORE status codes, PS3.18 table
// 10.5.3-1 and PS3.4 annex B), so the export reports both alike.
//
// Authentication, if the server wants it: HTTP basic, from the URL's user information
// (https://user:password@pacs.example/dicom-web); the URL named in messages never carries it.

export interface StowTarget {
  /** POST here: the service's root with /studies appended (unless it ends with /studies or /studies/{StudyInstanceUID}). */
  readonly studiesUrl: string;
  /** The URL as messages name it: without user information. */
  readonly display: string;
  /** "Basic ..." when the URL carried a user. */
  readonly authorization?: string;
}

/** An http(s) URL of a DICOMweb service; null when it is not one (another scheme, a query or fragment, not a URL). */
export function parseStowUrl(text: string): StowTarget | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.search !== "" || url.hash !== "") return null;
  const authorization =
    url.username !== ""
      ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString("base64")}`
      : undefined;
  url.username = "";
  url.password = "";
  const root = url.href.replace(/\/+$/, "");
  return {
    studiesUrl: /\/studies(\/[0-9.]+)?$/.test(url.pathname.replace(/\/+$/, "")) ? root : `${root}/studies`,
    display: root,
    ...(authorization ? { authorization } : {}),
  };
}

/** The text as typed, with any password replaced: for messages about a URL that did not parse as a STOW target. */
export const redactUrl = (text: string) => text.replace(/(\/\/[^/@:]*):[^/@]*@/, "$1:***@");

/** Nothing answered: refused connection, unknown host, no answer in time. */
export class StowUnreachable extends Error {
  override readonly name = "StowUnreachable";
}

/** The server answered with an HTTP error and no per-instance outcomes: its status and message. */
export class StowRefused extends Error {
  override readonly name = "StowRefused";
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** PS3.18 table 10.5.3-1 / PS3.4 B.2.3: the Failure Reasons (0008,1197) a STOW-RS origin server gives. */
const failureReasons = new Map<number, string>([
  [0x0110, "processing failure"],
  [0x0122, "SOP class not supported"],
  [0xa700, "out of resources"],
  [0xa900, "data set does not match SOP class"],
  [0xc000, "cannot understand"],
  [0xc122, "transfer syntax not supported"],
]);

export interface StowOptions {
  /** Files per request (default 50). */
  readonly batchFiles?: number;
  /** Bytes per request (default 16 MiB; a larger file goes alone). */
  readonly batchBytes?: number;
  /** Per request (default 60 s). */
  readonly timeoutMs?: number;
}

/** The SOP Class and Instance UIDs of a Part 10 file's meta header (group 0002, explicit VR little endian); null if none. */
export function part10Uids(bytes: Uint8Array): { sopClass: string; sopInstance: string } | null {
  if (bytes.length < 132 || String.fromCharCode(...bytes.subarray(128, 132)) !== "DICM") return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = (at: number, length: number) => new TextDecoder("latin1").decode(bytes.subarray(at, at + length)).replace(/[\0 ]+$/, "");
  let sopClass = "";
  let sopInstance = "";
  for (let at = 132; at + 8 <= bytes.length; ) {
    const group = view.getUint16(at, true);
    if (group !== 0x0002) break;
    const element = view.getUint16(at + 2, true);
    const vr = String.fromCharCode(bytes[at + 4]!, bytes[at + 5]!);
    const long = ["OB", "OD", "OF", "OL", "OW", "SQ", "UC", "UN", "UR", "UT", "OV", "SV", "UV"].includes(vr);
    if (long && at + 12 > bytes.length) break;
    const length = long ? view.getUint32(at + 8, true) : view.getUint16(at + 6, true);
    const value = at + (long ? 12 : 8);
    if (value + length > bytes.length) break;
    if (element === 0x0002) sopClass = text(value, length);
    if (element === 0x0003) sopInstance = text(value, length);
    at = value + length;
  }
  return sopInstance !== "" ? { sopClass, sopInstance } : null;
}

type DicomJson = Record<string, { vr?: string; Value?: unknown[] } | undefined>;

/** The items of a sequence attribute of a DICOM JSON dataset. */
const itemsOf = (ds: DicomJson, tag: string): DicomJson[] => (ds[tag]?.Value ?? []).filter((v): v is DicomJson => typeof v === "object");
const firstOf = (ds: DicomJson, tag: string): unknown => ds[tag]?.Value?.[0];
/** A US value (a status code): a number, or (some servers) its decimal text. */
const codeOf = (ds: DicomJson, tag: string): number | null => {
  const value = firstOf(ds, tag);
  const code = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  return typeof code === "number" && Number.isInteger(code) ? code : null;
};

/** What the server said, briefly: Orthanc's and most servers' JSON error (Message, Details), else the text's first line. */
function serverMessage(text: string): string {
  try {
    const json = JSON.parse(text) as Record<string, unknown>;
    const parts = [json.Message ?? json.message ?? json.error, json.Details ?? json.details].filter(
      (p) => typeof p === "string" && p !== "",
    );
    if (parts.length > 0) return parts.join(": ");
  } catch {
    // not JSON
  }
  const line = text
    .replace(/<[^>]*>/g, " ")
    .split("\n")
    .map((l) => l.trim())
    .find((l) => l !== "");
  return line === undefined ? "no message" : line.length > 200 ? `${line.slice(0, 200)}...` : line;
}

interface Batch {
  readonly files: string[];
  readonly bytes: Uint8Array[];
  readonly uids: string[];
}

/** One request: the batch's files as a multipart/related body; resolves with the response's dataset. */
async function post(target: StowTarget, batch: Batch, timeoutMs: number): Promise<{ ds: DicomJson; status: number }> {
  let boundary = `isopter-${randomUUID()}`;
  while (batch.bytes.some((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).includes(boundary)))
    boundary = `isopter-${randomUUID()}`;
  const parts: Uint8Array[] = [];
  for (const bytes of batch.bytes)
    parts.push(Buffer.from(`--${boundary}\r\nContent-Type: application/dicom\r\n\r\n`), bytes, Buffer.from("\r\n"));
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const body = Buffer.concat(parts);
  let response: Response;
  try {
    response = await fetch(target.studiesUrl, {
      method: "POST",
      headers: {
        "content-type": `multipart/related; type="application/dicom"; boundary=${boundary}`,
        accept: "application/dicom+json",
        ...(target.authorization ? { authorization: target.authorization } : {}),
      },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (e) {
    const error = e as Error & { cause?: { code?: string; message?: string } };
    if (error.name === "TimeoutError" || error.name === "AbortError")
      throw new StowUnreachable(`${target.display}: no answer within ${Math.round(timeoutMs / 1000)} s`);
    throw new StowUnreachable(`${target.display}: ${error.cause?.message ?? error.cause?.code ?? error.message}`);
  }
  const text = await response.text();
  let dataset: DicomJson | null = null;
  try {
    const json = JSON.parse(text) as unknown;
    // A dataset, or (some servers) an array holding it.
    const candidate = (Array.isArray(json) ? json[0] : json) as DicomJson | undefined;
    if (candidate && typeof candidate === "object" && ("00081199" in candidate || "00081198" in candidate)) dataset = candidate;
  } catch {
    // not JSON: an error page
  }
  // 409 (none stored) and 202 (some) carry the per-instance outcomes: reported file by file. Any other error is the
  // whole request's.
  if (dataset) return { ds: dataset, status: response.status };
  if (!response.ok) {
    const where = response.status >= 300 && response.status < 400 ? ` (redirects to ${response.headers.get("location") ?? "?"})` : "";
    const hint =
      response.status !== 401
        ? ""
        : target.authorization
          ? "; the user and password in the URL were refused"
          : "; give a user and password in the URL: https://user:password@host/...";
    throw new StowRefused(
      response.status,
      `${target.studiesUrl} answered ${response.status}${response.statusText ? ` ${response.statusText}` : ""}${where}: ${serverMessage(text)}${hint}`,
    );
  }
  return { ds: {}, status: response.status };
}

/**
 * Stores the files by STOW-RS; resolves with one outcome per file, in order. Rejects with StowUnreachable when the server
 * cannot be reached, StowRefused when it answers a request with an HTTP error (its message says how many files were
 * stored before).
 */
export async function stowFiles(target: StowTarget, files: readonly string[], options: StowOptions = {}): Promise<StoreOutcome[]> {
  const batchFiles = options.batchFiles ?? 50;
  const batchBytes = options.batchBytes ?? 16 * 1024 * 1024;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const outcomes = new Map<string, StoreOutcome>();
  let stored = 0;
  const send = async (batch: Batch) => {
    if (batch.files.length === 0) return;
    let answer: { ds: DicomJson; status: number };
    try {
      answer = await post(target, batch, timeoutMs);
    } catch (e) {
      if (stored > 0 && e instanceof StowRefused)
        throw new StowRefused(e.status, `${e.message} (${stored} of ${files.length} files were stored before)`);
      throw e;
    }
    const { ds, status: httpStatus } = answer;
    const referenced = new Map(itemsOf(ds, "00081199").map((i) => [String(firstOf(i, "00081155")), i]));
    const failed = new Map(itemsOf(ds, "00081198").map((i) => [String(firstOf(i, "00081155")), i]));
    batch.files.forEach((file, k) => {
      const uid = batch.uids[k]!;
      const ok = referenced.get(uid);
      const bad = failed.get(uid);
      if (ok && !bad) {
        outcomes.set(file, { file, status: codeOf(ok, "00081196") ?? 0, stored: true });
        stored++;
      } else if (bad) {
        const status = codeOf(bad, "00081197");
        const meaning = status !== null ? failureReasons.get(status) : undefined;
        outcomes.set(file, { file, status, stored: false, ...(meaning ? { reason: meaning } : {}) });
      } else
        outcomes.set(file, {
          file,
          status: null,
          stored: false,
          reason: `the server's answer (HTTP ${httpStatus}) does not name this instance`,
        });
    });
  };
  let batch: Batch = { files: [], bytes: [], uids: [] };
  let size = 0;
  for (const file of files) {
    let bytes: Uint8Array;
    try {
      bytes = await readFile(file);
    } catch (e) {
      outcomes.set(file, {
        file,
        status: null,
        stored: false,
        reason: `cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      });
      continue;
    }
    const uids = part10Uids(bytes);
    if (uids === null) {
      outcomes.set(file, { file, status: null, stored: false, reason: "not a DICOM Part 10 file, not sent" });
      continue;
    }
    if (batch.files.length > 0 && (batch.files.length >= batchFiles || size + bytes.length > batchBytes)) {
      await send(batch);
      batch = { files: [], bytes: [], uids: [] };
      size = 0;
    }
    batch.files.push(file);
    batch.bytes.push(bytes);
    batch.uids.push(uids.sopInstance);
    size += bytes.length;
  }
  await send(batch);
  return files.map((file) => outcomes.get(file)!);
}
