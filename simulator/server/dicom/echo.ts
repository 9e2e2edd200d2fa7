import type { DicomNode } from "../../../core/model/dicom-network.ts";

// Verification (PS3.7 9.1.5, C-ECHO) of a peer: whether it answers, and how, in one line a manager can act on.

export async function echo(node: DicomNode, timeoutMs = 10_000): Promise<{ ok: boolean; message: string }> {
  const { Client, requests, log } = (await import("dcmjs-dimse")).default;
  log.setLevel("silent");
  const peer = `${node.calledAeTitle}@${node.host}:${node.port}`;
  return new Promise((resolve) => {
    const client = new Client();
    const request = new requests.CEchoRequest();
    let status: number | null = null;
    let failure: string | null = null;
    request.on("response", (r: { getStatus(): number }) => void (status = r.getStatus()));
    client.addRequest(request);
    client.on(
      "associationRejected",
      (e: { reason?: unknown }) => (failure = `${peer} refused the association (${String(e?.reason ?? "no reason given")})`),
    );
    client.on("networkError", (e: Error) => (failure ??= `${peer} cannot be reached: ${e.message}`));
    client.on("closed", () =>
      resolve(
        status === 0
          ? { ok: true, message: `${peer} answered the verification (C-ECHO) as ${node.callingAeTitle}` }
          : {
              ok: false,
              message:
                failure ??
                (status === null
                  ? `${peer} did not answer the verification`
                  : `${peer} answered status 0x${status.toString(16).padStart(4, "0")}`),
            },
      ),
    );
    client.send(node.host, node.port, node.callingAeTitle, node.calledAeTitle, {
      connectTimeout: timeoutMs,
      associationTimeout: timeoutMs,
      pduTimeout: timeoutMs,
    });
  });
}
