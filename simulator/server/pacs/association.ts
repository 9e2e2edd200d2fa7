import type { DicomNode } from "../../../core/model/dicom-network.ts";

// One association with the PACS (dcmjs-dimse's Client): the requests sent in order, each request's responses handed to
// its caller, and the end of it as one outcome. Whatever keeps the PACS from answering (nothing listening, a refused
// association, a request it refuses, time running out) is a PacsUnavailable whose message names the PACS by AE title,
// host and port and what a manager can check; the handler answers it 503 `unavailable`.

export const OPV_SOP_CLASS_UID = "1.2.840.10008.5.1.4.1.1.80.1";

/** Transfer syntaxes Isopter takes an OPV in (what simulator/server/import/part10.ts reads), preferred first. */
export const STORE_TRANSFER_SYNTAXES = [
  "1.2.840.10008.1.2.1", // explicit VR little endian
  "1.2.840.10008.1.2", // implicit VR little endian
  "1.2.840.10008.1.2.1.99", // deflated explicit VR little endian
  "1.2.840.10008.1.2.2", // explicit VR big endian (retired, still written by old devices)
] as const;

/** The PACS as a manager names it in the settings. */
export const pacsName = (node: DicomNode): string => `the PACS ${node.calledAeTitle} at ${node.host}:${node.port}`;

/** The PACS cannot be used now: not reached, refused the association or a request, or too slow. */
export class PacsUnavailable extends Error {
  override readonly name = "PacsUnavailable";
}

type Dimse = typeof import("dcmjs-dimse")["default"];
let loaded: Promise<Dimse> | undefined;
/** dcmjs-dimse, loaded once when the DICOM network is first used (its log silenced: failures are ours to word). */
export const dimse = (): Promise<Dimse> =>
  (loaded ??= import("dcmjs-dimse").then((m) => {
    m.default.log.setLevel("silent");
    return m.default;
  }));

/** An event source, as dcmjs-dimse's clients and requests are (their listeners take what each event gives). */
export type Emitter = Pick<ReturnType<Dimse["requests"]["CFindRequest"]["createStudyFindRequest"]>, "on">;

/** A C-STORE request as a receiver reads it (the dataset is what createDatasetFromStoreWritableStream made). */
export interface StoreRequest {
  getAffectedSopClassUid(): string;
  getAffectedSopInstanceUid(): string;
  getDataset(): object | undefined;
}

/** What dcmjs-dimse's responses carry beyond the typings' getStatus and getDataset. */
export interface Response {
  getStatus(): number;
  getDataset(): { getElements(): Record<string, unknown> } | undefined;
  getErrorComment?(): string | undefined;
  getCompleted?(): number | undefined;
  getFailures?(): number | undefined;
  getWarnings?(): number | undefined;
  getRemaining?(): number | undefined;
}

export const PENDING = new Set([0xff00, 0xff01]);
export const hex = (status: number) => `0x${status.toString(16).padStart(4, "0")}`;

/** PS3.8 9.3.4: why an association was rejected, in words a manager can act on. */
export function rejection(node: DicomNode, e: { result?: number; source?: number; reason?: number } | undefined): string {
  const base = `${pacsName(node)} refused the association`;
  if (e?.source === 1 && e.reason === 7)
    return `${base}: it does not answer to the called AE title ${node.calledAeTitle} (check the PACS's AE title in the settings)`;
  if (e?.source === 1 && e.reason === 3)
    return `${base}: it does not know Isopter's AE title ${node.callingAeTitle} (register it in the PACS)`;
  if (e?.source === 3) return `${base}: it is busy (${e.reason === 1 ? "temporary congestion" : "local limit exceeded"}); try again later`;
  return `${base} (${e?.result === 2 ? "transient" : "permanent"} rejection, source ${e?.source ?? "?"}, reason ${e?.reason ?? "?"})`;
}

/** What a Client exposes beyond the typings: its network once `send` ran (for the store hooks of a C-GET). */
export interface StoreHooks {
  createStoreWritableStream(context: unknown, request: unknown): NodeJS.WritableStream;
  createDatasetFromStoreWritableStream(
    writable: NodeJS.WritableStream,
    context: AcceptedContext,
    callback: (dataset: unknown) => void,
  ): void;
  sendAssociationRequest(association: AssociationLike): void;
}
export interface AcceptedContext {
  getAcceptedTransferSyntaxUid(): string;
}
export interface AssociationLike {
  addOrGetPresentationContext(abstractSyntaxUid: string): number;
  addTransferSyntaxToPresentationContext(pcId: number, transferSyntaxUid: string): void;
  getPresentationContext(pcId: number): { setProviderRole(role: boolean): void; setUserRole(role: boolean): void };
}

export interface AssociationOptions {
  /** What the association is for, in the failures' words: "the C-FIND for the patient's studies". */
  readonly what: string;
  /** Connecting, the association's answer, and the longest silence between two PDUs. */
  readonly timeoutMs: number;
  /** The whole association, however busy: then it is aborted. */
  readonly limitMs: number;
  /** Called once `send` made the network (before it connects): hooks of a C-GET. */
  readonly prepare?: (network: StoreHooks, client: Emitter) => void;
}

/**
 * Sends `requests` on one association and resolves when it is released. Each request's responses go to its
 * `onResponse`; a request that ends in a status other than success (or, where allowed, warning) rejects the whole
 * association with the PACS's status and error comment.
 */
export async function associate(
  node: DicomNode,
  requests: ReadonlyArray<{
    readonly request: Emitter;
    readonly onResponse?: (response: Response) => void;
    /** Final statuses taken as an answer besides success; "any": the caller judges every final status itself (a
     * retrieval's sub-operations fail one instance, not the association). */
    readonly accept?: readonly number[] | "any";
  }>,
  options: AssociationOptions,
): Promise<void> {
  const { Client } = await dimse();
  const name = pacsName(node);
  return new Promise((resolve, reject) => {
    const client = new Client();
    let failure: string | null = null;
    let finals = 0;
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(limit);
      if (failure === null && finals < requests.length) failure = `${name} ended the association before it answered ${options.what}`;
      if (failure === null) resolve();
      else reject(new PacsUnavailable(failure));
    };
    for (const { request, onResponse, accept = [] } of requests) {
      request.on("response", (response: Response) => {
        const status = response.getStatus();
        if (PENDING.has(status)) return onResponse?.(response);
        finals++;
        if (status === 0 || accept === "any" || accept.includes(status)) return onResponse?.(response);
        const comment = response.getErrorComment?.();
        failure ??= `${name} answered ${options.what} with status ${hex(status)}${comment ? ` (${comment})` : ""}`;
      });
    }
    for (const { request } of requests) client.addRequest(request);
    client.on("associationRejected", (e: { result?: number; source?: number; reason?: number }) => (failure ??= rejection(node, e)));
    client.on("networkError", (e: Error) => {
      const message = e?.message ?? String(e);
      failure ??= /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|ETIMEDOUT|Connection timeout/.test(message)
        ? `${name} cannot be reached (${message.replace(/^.*?-> /, "")}); check the host and port and that the PACS is running`
        : `${name}: the connection failed during ${options.what} (${message.replace(/^.*?-> /, "")})`;
    });
    client.on("closed", finish);
    const limit = setTimeout(() => {
      failure ??= `${name} did not finish ${options.what} within ${Math.round(options.limitMs / 1000)} s`;
      try {
        (client as unknown as { abort(): void }).abort();
      } catch {
        // not connected yet: nothing to abort
      }
      // A socket that never connected closes on its own timeout; the answer does not wait for it.
      finish();
    }, options.limitMs);
    try {
      // An IPv6 address is written in brackets in the settings (a host name's form); the socket takes it bare.
      client.send(node.host.replace(/^\[(.*)\]$/, "$1"), node.port, node.callingAeTitle, node.calledAeTitle, {
        connectTimeout: options.timeoutMs,
        associationTimeout: options.timeoutMs,
        pduTimeout: options.timeoutMs,
      });
    } catch (e) {
      failure ??= `${name} cannot be reached (${(e as Error).message})`;
      return finish();
    }
    const network = (client as unknown as { network?: StoreHooks }).network;
    if (options.prepare && network) options.prepare(network, client);
  });
}
