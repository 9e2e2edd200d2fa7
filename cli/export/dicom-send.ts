// C-STORE to a PACS (DICOM PS3.7 9.1.1) with dcmjs-dimse: the exported files in one association, each answered with
// its own status. `--send AET@HOST:PORT` names the receiver; we call ourselves ISOPTER. dcmjs-dimse loads only when
// sending (the CLI's start stays light).

export interface StoreTarget {
  readonly aet: string;
  readonly host: string;
  readonly port: number;
}

export interface StoreOutcome {
  readonly file: string;
  /**
   * The C-STORE response status (0x0000 success, 0xB000-0xBFFF stored with a warning, else refused); 0x0122 ("Refused:
   * SOP Class not supported", PS3.7 C.4) when the receiver accepted no presentation context for the file's SOP class,
   * so the file could not be offered at all; null: no answer.
   */
  readonly status: number | null;
  readonly stored: boolean;
  /** Why, when the receiver's status alone does not say it (the SOP class refused in the association). */
  readonly reason?: string;
}

/** PS3.7 C.4: the status for a SOP class the receiver does not support. */
export const SOP_CLASS_NOT_SUPPORTED = 0x0122;

export const CALLING_AET = "ISOPTER";

/** AET@HOST:PORT; null when it does not read so. AE titles are at most 16 characters, no backslash. */
export function parseStoreTarget(text: string): StoreTarget | null {
  const m = /^([^@\\]{1,16})@(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(text.trim());
  if (!m) return null;
  const port = Number(m[3]);
  if (port < 1 || port > 65535) return null;
  return { aet: m[1]!.trim(), host: m[2]!.replace(/^\[|\]$/g, ""), port };
}

export const statusText = (status: number | null) =>
  status === null ? "no answer" : `0x${status.toString(16).padStart(4, "0").toUpperCase()}`;

/** The receiver answered and refused the association (as against one that could not be reached). */
export class AssociationRejected extends Error {
  override readonly name = "AssociationRejected";
}

/** Sends the files; resolves with one outcome per file, or rejects when the receiver cannot be reached or refuses us. */
export async function storeFiles(target: StoreTarget, files: readonly string[], timeoutMs = 30_000): Promise<StoreOutcome[]> {
  const { Client, requests, log } = (await import("dcmjs-dimse")).default;
  log.setLevel("silent"); // its association chatter would go to stdout, where an export's data may go; every outcome is reported by the caller
  return new Promise((resolve, reject) => {
    if (files.length === 0) return resolve([]);
    const client = new Client();
    const statuses = new Map<string, number>();
    const notOffered = new Map<string, string>();
    const pending: Array<[string, unknown]> = [];
    for (const file of files) {
      const request = new requests.CStoreRequest(file);
      request.on("response", (response: { getStatus(): number }) => void statuses.set(file, response.getStatus()));
      client.addRequest(request);
      pending.push([file, request]);
    }
    // A receiver that refuses the presentation context of a SOP class (a PACS that stores OPV but not Encapsulated
    // PDF): dcmjs-dimse skips those files silently; they are refused, with the status a C-STORE would have carried.
    client.on("associationAccepted", (association: { getAcceptedPresentationContextFromRequest(r: unknown): unknown }) => {
      for (const [file, request] of pending)
        if (!association.getAcceptedPresentationContextFromRequest(request)) {
          const sopClass = (request as { getAffectedSopClassUid?(): string }).getAffectedSopClassUid?.() ?? "its SOP class";
          notOffered.set(file, `the receiver accepted no presentation context for ${sopClass}`);
        }
    });
    let failure: Error | null = null;
    client.on(
      "associationRejected",
      (e: { reason?: unknown }) =>
        (failure = new AssociationRejected(
          `${target.aet}@${target.host}:${target.port} rejected the association (${String(e?.reason ?? "no reason given")})`,
        )),
    );
    client.on("networkError", (e: Error) => (failure ??= new Error(`${target.host}:${target.port}: ${e.message}`)));
    client.on("closed", () => {
      if (failure && statuses.size === 0) return reject(failure);
      resolve(
        files.map((file) => {
          const reason = notOffered.get(file);
          if (reason !== undefined && !statuses.has(file)) return { file, status: SOP_CLASS_NOT_SUPPORTED, stored: false, reason };
          const status = statuses.get(file) ?? null;
          return { file, status, stored: status !== null && (status === 0 || (status >= 0xb000 && status <= 0xbfff)) };
        }),
      );
    });
    client.send(target.host, target.port, CALLING_AET, target.aet, {
      connectTimeout: timeoutMs,
      associationTimeout: timeoutMs,
      pduTimeout: timeoutMs,
    });
  });
}
