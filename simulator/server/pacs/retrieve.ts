import type { DicomNode } from "../../../core/model/dicom-network.ts";
import {
  type AcceptedContext,
  associate,
  type AssociationLike,
  dimse,
  type Emitter,
  hex,
  OPV_SOP_CLASS_UID,
  PacsUnavailable,
  pacsName,
  type Response,
  STORE_TRANSFER_SYNTAXES,
  type StoreRequest,
} from "./association.ts";
import { Collection, limitedSink, type StoreLimits } from "./collection.ts";
import type { PacsInstance } from "./query.ts";
import { receiveOn } from "./store-scp.ts";

// The instances the query found, retrieved one by one at IMAGE level (Study, Series and SOP Instance UID: PS3.4
// C.4.2.2.1 and C.4.3.2.1), so only the OPV instances come, never the rest of their study, all on one association:
// - C-GET: the PACS sends them back on that association as C-STORE sub-operations. The association proposes OPV
//   storage with Isopter in the SCP role (PS3.7 D.3.3.4, role selection); dcmjs-dimse proposes its own list of storage
//   classes instead, which has no OPV, so that list is turned off and the OPV context added as the request goes out.
// - C-MOVE: the PACS opens associations of its own to the move destination, Isopter's calling AE title, which it must
//   know with this server's address and the store port (store-scp.ts listens there meanwhile).
// Either way the datasets' bytes are kept as they came (collection.ts) and the whole retrieval is bounded in time and
// size. A PACS that answers a request with a failure fails that instance, named in the report; one that cannot be
// reached, refuses the association or does not know the move destination fails the fetch (PacsUnavailable).

export interface RetrieveLimits extends StoreLimits {
  readonly timeoutMs: number;
  readonly limitMs: number;
}

export interface Retrieved {
  /** Part 10 files by SOP Instance UID. */
  readonly files: ReadonlyMap<string, Buffer>;
  /** Why each instance that did not come did not. */
  readonly problems: ReadonlyMap<string, string>;
}

interface SubOperations {
  getCompleted?(): number | undefined;
  getFailures?(): number | undefined;
  getWarnings?(): number | undefined;
}
const counts = (r: SubOperations) => {
  const parts = [
    r.getFailures?.() ? `${r.getFailures!()} failed` : null,
    r.getWarnings?.() ? `${r.getWarnings!()} with warnings` : null,
  ].filter(Boolean);
  return parts.length > 0 ? `, sub-operations ${parts.join(", ")}` : "";
};

/** The final answer to one instance's C-GET or C-MOVE, as the reason it did not come (when it did not). */
const notSent = (service: string, r: Response): string => {
  const status = r.getStatus();
  const comment = r.getErrorComment?.();
  return `the PACS did not send it (${service} status ${hex(status)}${counts(r)}${comment ? `: ${comment}` : ""})`;
};

/** A final status that is neither success, warning (0xB000: some sub-operations failed) nor cancel. */
const isFailure = (status: number) => status !== 0 && status !== 0xb000 && status !== 0xfe00;

const byUid = (instances: readonly PacsInstance[]) => new Map(instances.map((i) => [i.sopInstanceUid, i]));

export async function retrieveByGet(node: DicomNode, instances: readonly PacsInstance[], limits: RetrieveLimits): Promise<Retrieved> {
  if (instances.length === 0) return { files: new Map(), problems: new Map() };
  const { requests, responses, Dataset } = await dimse();
  const collection = new Collection(byUid(instances), limits);
  const raw = new WeakMap<object, { bytes: Buffer | null; transferSyntaxUid: string }>();
  const finals: number[] = [];
  await associate(
    node,
    instances.map((i) => {
      const request = requests.CGetRequest.createImageGetRequest(
        i.studyInstanceUid,
        i.seriesInstanceUid,
        i.sopInstanceUid,
      ) as unknown as Emitter & {
        setAddStorageSopClassesToAssociation(add: boolean): void;
      };
      request.setAddStorageSopClassesToAssociation(false);
      return {
        request,
        accept: "any" as const,
        onResponse: (r: Response) => {
          if (r.getStatus() === 0xff00) return;
          finals.push(r.getStatus());
          collection.missing(i.sopInstanceUid, notSent("C-GET", r));
        },
      };
    }),
    {
      what: `the C-GET of ${instances.length} OPV instances`,
      timeoutMs: limits.timeoutMs,
      limitMs: limits.limitMs,
      prepare: (network, client) => {
        const send = network.sendAssociationRequest.bind(network);
        network.sendAssociationRequest = (association: AssociationLike) => {
          const id = association.addOrGetPresentationContext(OPV_SOP_CLASS_UID);
          for (const syntax of STORE_TRANSFER_SYNTAXES) association.addTransferSyntaxToPresentationContext(id, syntax);
          association.getPresentationContext(id).setUserRole(false);
          association.getPresentationContext(id).setProviderRole(true);
          send(association);
        };
        network.createStoreWritableStream = () => limitedSink(limits.maxInstanceBytes);
        network.createDatasetFromStoreWritableStream = (writable, context: AcceptedContext, callback) => {
          const dataset = new Dataset({}, context.getAcceptedTransferSyntaxUid());
          raw.set(dataset, {
            bytes: (writable as ReturnType<typeof limitedSink>).take(),
            transferSyntaxUid: context.getAcceptedTransferSyntaxUid(),
          });
          callback(dataset);
        };
        client.on("cStoreRequest", (request: StoreRequest, callback: (response: unknown) => void) => {
          const data = raw.get(request.getDataset() ?? {});
          const status = collection.offer(
            String(request.getAffectedSopClassUid()),
            String(request.getAffectedSopInstanceUid()),
            data?.bytes ?? null,
            data?.transferSyntaxUid ?? "",
          );
          const response = responses.CStoreResponse.fromRequest(request);
          response.setStatus(status);
          callback(response);
        });
      },
    },
  );
  if (collection.received.size === 0 && finals.length > 0 && finals.every(isFailure))
    throw new PacsUnavailable(
      `${pacsName(node)} sent none of the ${instances.length} instances (C-GET status ${hex(finals[0]!)}): ` +
        `check that it allows Isopter's AE title ${node.callingAeTitle} to retrieve by C-GET, or retrieve by C-MOVE`,
    );
  for (const i of instances) collection.missing(i.sopInstanceUid, "the PACS did not send it");
  return { files: collection.received, problems: collection.problems };
}

export async function retrieveByMove(
  node: DicomNode,
  storePort: number,
  instances: readonly PacsInstance[],
  limits: RetrieveLimits,
): Promise<Retrieved> {
  if (instances.length === 0) return { files: new Map(), problems: new Map() };
  const { requests } = await dimse();
  const collection = new Collection(byUid(instances), limits);
  const leave = await receiveOn(storePort, node.callingAeTitle, collection);
  const finals: number[] = [];
  try {
    await associate(
      node,
      instances.map((i) => ({
        request: requests.CMoveRequest.createImageMoveRequest(
          node.callingAeTitle,
          i.studyInstanceUid,
          i.seriesInstanceUid,
          i.sopInstanceUid,
        ),
        accept: "any" as const,
        onResponse: (r: Response) => {
          if (r.getStatus() === 0xff00) return;
          finals.push(r.getStatus());
          collection.missing(i.sopInstanceUid, notSent("C-MOVE", r));
        },
      })),
      {
        what: `the C-MOVE of ${instances.length} OPV instances to ${node.callingAeTitle}`,
        timeoutMs: limits.timeoutMs,
        limitMs: limits.limitMs,
      },
    );
  } finally {
    await leave();
  }
  // Nothing came and every move failed: the PACS cannot send to Isopter (Orthanc says 0xC000 for a destination it does
  // not know, the standard 0xA801).
  if (collection.received.size === 0 && finals.length > 0 && finals.every(isFailure)) {
    const destination = `Isopter's AE title ${node.callingAeTitle} as a move destination`;
    const where = `this server's address and port ${storePort}`;
    throw new PacsUnavailable(
      finals.includes(0xa801)
        ? `${pacsName(node)} does not know ${destination}: register it in the PACS with ${where}, or retrieve by C-GET`
        : `${pacsName(node)} moved none of the ${instances.length} instances to ${node.callingAeTitle} (C-MOVE status ${hex(finals[0]!)}): ` +
            `check that it knows ${destination} at ${where}, or retrieve by C-GET`,
    );
  }
  for (const i of instances) collection.missing(i.sopInstanceUid, "the PACS did not send it to Isopter's store port");
  return { files: collection.received, problems: collection.problems };
}
