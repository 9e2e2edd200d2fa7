import { dimse, OPV_SOP_CLASS_UID, PacsUnavailable, STORE_TRANSFER_SYNTAXES, type StoreRequest } from "./association.ts";
import { type Collection, limitedSink, StoreStatus } from "./collection.ts";

// Isopter's storage SCP for a C-MOVE (PS3.4 B, as SCP for OPV and verification only): listening on the settings'
// store port only while a fetch waits for instances, which arrive on associations the PACS opens to the move
// destination, our (calling) AE title. Several fetches at once share one listener per port; each takes the instances
// it asked for under its own AE title. An association calling another AE title is rejected; an instance nobody asked
// for is refused (not authorised); the per-instance size limit holds while the bytes arrive.

const VERIFICATION = "1.2.840.10008.1.1";
const IMPLICIT_LE = "1.2.840.10008.1.2";
/** The longest instance the listener takes, whatever fetch waits for it (each fetch's own limits apply on top). */
const MAX_INSTANCE_BYTES = 64 * 1048576;
const TIMEOUT_MS = 30_000;

interface Waiter {
  readonly aet: string;
  readonly collection: Collection;
}

interface Listener {
  readonly waiters: Set<Waiter>;
  close(): Promise<void>;
}

const listeners = new Map<number, Promise<Listener>>();
const closing = new Map<number, Promise<void>>();

interface ContextLike {
  getAbstractSyntaxUid(): string;
  getTransferSyntaxUids(): string[];
  getAcceptedTransferSyntaxUid(): string;
  setResult(result: number, transferSyntaxUid?: string): void;
}

interface ScpAssociation {
  getCalledAeTitle(): string;
  getPresentationContexts(): Array<{ id: number }>;
  getPresentationContext(id: number): ContextLike;
}

async function listen(port: number): Promise<Listener> {
  await closing.get(port);
  const { Server, Scp, Dataset, constants, responses } = await dimse();
  const { PresentationContextResult, RejectResult, RejectSource, RejectReason } = constants;
  const waiters = new Set<Waiter>();
  const raw = new WeakMap<object, { bytes: Buffer | null; transferSyntaxUid: string }>();

  class StoreScp extends Scp {
    association: ScpAssociation | undefined;
    associationRequested(association: ScpAssociation) {
      this.association = association;
      const called = String(association.getCalledAeTitle()).trim();
      if (![...waiters].some((w) => w.aet === called)) {
        this.sendAssociationReject(RejectResult.Permanent, RejectSource.ServiceUser, RejectReason.CalledAeNotRecognized);
        return;
      }
      for (const { id } of association.getPresentationContexts()) {
        const context = association.getPresentationContext(id);
        const abstract = context.getAbstractSyntaxUid();
        const offered = context.getTransferSyntaxUids();
        if (abstract !== OPV_SOP_CLASS_UID && abstract !== VERIFICATION) {
          context.setResult(PresentationContextResult.RejectAbstractSyntaxNotSupported);
          continue;
        }
        const syntax = (abstract === VERIFICATION ? [IMPLICIT_LE] : STORE_TRANSFER_SYNTAXES).find((s) => offered.includes(s));
        if (syntax) context.setResult(PresentationContextResult.Accept, syntax);
        else context.setResult(PresentationContextResult.RejectTransferSyntaxesNotSupported);
      }
      this.sendAssociationAccept();
    }
    createStoreWritableStream() {
      return limitedSink(MAX_INSTANCE_BYTES);
    }
    createDatasetFromStoreWritableStream(
      writable: ReturnType<typeof limitedSink>,
      context: ContextLike,
      callback: (dataset: unknown) => void,
    ) {
      const dataset = new Dataset({}, context.getAcceptedTransferSyntaxUid());
      raw.set(dataset, { bytes: writable.take(), transferSyntaxUid: context.getAcceptedTransferSyntaxUid() });
      callback(dataset);
    }
    cStoreRequest(request: StoreRequest, callback: (response: unknown) => void) {
      const uid = String(request.getAffectedSopInstanceUid());
      const called = String(this.association?.getCalledAeTitle() ?? "").trim();
      const waiter = [...waiters].find((w) => w.aet === called && w.collection.expects(uid));
      const data = raw.get(request.getDataset() ?? {});
      const status =
        waiter && data
          ? waiter.collection.offer(String(request.getAffectedSopClassUid()), uid, data.bytes, data.transferSyntaxUid)
          : StoreStatus.NotAuthorized;
      const response = responses.CStoreResponse.fromRequest(request);
      response.setStatus(status);
      callback(response);
    }
    cEchoRequest(request: object, callback: (response: unknown) => void) {
      const response = responses.CEchoResponse.fromRequest(request);
      response.setStatus(0);
      callback(response);
    }
    associationReleaseRequested() {
      this.sendAssociationReleaseResponse();
    }
  }

  const server = new Server(StoreScp);
  await new Promise<void>((resolve, reject) => {
    let listening = false;
    server.on("listening", () => {
      listening = true;
      resolve();
    });
    server.on("networkError", (e: NodeJS.ErrnoException) => {
      if (listening) return; // one sender's broken connection: that association's problem, not the listener's
      reject(
        new PacsUnavailable(
          e?.code === "EADDRINUSE" || /EADDRINUSE/.test(String(e?.message))
            ? `Isopter's store port ${port} is in use by another program: choose a free port in the DICOM settings`
            : `Isopter cannot listen on its store port ${port} (${e?.message ?? e})`,
        ),
      );
    });
    server.listen(port, { connectTimeout: TIMEOUT_MS, associationTimeout: TIMEOUT_MS, pduTimeout: TIMEOUT_MS });
  });
  const net = (server as unknown as { server?: { once(event: "close", f: () => void): void } }).server;
  return {
    waiters,
    close: () =>
      new Promise<void>((resolve) => {
        const fallback = setTimeout(resolve, 1000);
        net?.once("close", () => (clearTimeout(fallback), resolve()));
        server.close();
      }),
  };
}

/**
 * Takes the instances `collection` expects under the move destination `aet` on `port` until the returned function is
 * called (the last fetch to leave closes the listener). Rejects with PacsUnavailable when the port cannot be listened on.
 */
export async function receiveOn(port: number, aet: string, collection: Collection): Promise<() => Promise<void>> {
  let pending = listeners.get(port);
  if (!pending) {
    pending = listen(port);
    listeners.set(port, pending);
    pending.catch(() => listeners.delete(port));
  }
  const listener = await pending;
  const waiter: Waiter = { aet: aet.trim(), collection };
  listener.waiters.add(waiter);
  return async () => {
    listener.waiters.delete(waiter);
    if (listener.waiters.size > 0 || listeners.get(port) !== pending) return;
    listeners.delete(port);
    const closed = listener.close();
    closing.set(port, closed);
    await closed;
    if (closing.get(port) === closed) closing.delete(port);
  };
}
