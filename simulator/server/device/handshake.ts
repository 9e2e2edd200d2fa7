import type { RefusalReason } from "../../../core/device/protocol.ts";
import type { ServerContext } from "../context.ts";
import { enrolmentBySn, exchangePairingCode, sameHash, secretHash, type EnrolmentRow } from "../store/enrolment.ts";

// The device socket's trust boundary: a headset proves who it is in its first frame before it is told anything
// (issue 15, point 1). Its hello names a serial and carries the device credential it was enrolled with, or a one-time
// pairing code, which is exchanged here for a new credential. Refused, in this order:
//   unknown-device     no organisation enrolled the serial
//   revoked            a manager revoked it (or enrolled it again: its old credential is void)
//   already-connected  the serial is connected with another credential (a wrong one cannot take over the live headset)
//   not-enrolled       registered before enrolment existed, never enrolled
//   wrong-credential   the credential does not match, or the pairing code is wrong, used or expired

export type Proof = { readonly credential: string } | { readonly pairingCode: string };

export type Admission =
  | { readonly ok: true; readonly device: EnrolmentRow; readonly credentialHash: string; readonly issuedCredential: string | null }
  | { readonly ok: false; readonly reason: RefusalReason; readonly message: string };

const refused = (reason: RefusalReason, message: string): Admission => ({ ok: false, reason, message });

/** Checks the hello's proof; `liveCredential` is the credential hash the serial is connected with now, if any. */
export const admit = async (ctx: ServerContext, sn: string, proof: Proof, liveCredential: string | undefined): Promise<Admission> => {
  const device = await enrolmentBySn(ctx.db, sn);
  if (!device) return refused("unknown-device", `No headset ${sn} is enrolled with this server`);
  if (device.revokedAt !== null) return refused("revoked", `Headset ${sn} was revoked; a manager must enrol it again`);
  if ("credential" in proof) {
    const hash = secretHash(proof.credential);
    if (sameHash(device.credentialHash, hash)) return { ok: true, device, credentialHash: hash, issuedCredential: null };
    if (liveCredential !== undefined) return refused("already-connected", `Headset ${sn} is connected with another credential`);
    if (device.credentialHash === null && device.pairingHash === null)
      return refused("not-enrolled", `Headset ${sn} is not enrolled; a manager must enrol it`);
    return refused("wrong-credential", `The credential of headset ${sn} is wrong`);
  }
  // A pairing code never takes over a connected headset: enrolling again closes the connection of the old credential.
  if (liveCredential !== undefined) return refused("already-connected", `Headset ${sn} is connected with another credential`);
  if (device.credentialHash === null && device.pairingHash === null)
    return refused("not-enrolled", `Headset ${sn} is not enrolled; a manager must enrol it`);
  const credential = await ctx.db.transaction((tx) => exchangePairingCode(tx, sn, proof.pairingCode, ctx.now()));
  if (credential === null) return refused("wrong-credential", `The pairing code of headset ${sn} is wrong, used or expired`);
  return { ok: true, device, credentialHash: secretHash(credential), issuedCredential: credential };
};

/** True while the device still accepts this credential (read again after attaching: a revocation committed meanwhile
 * must not leave the connection open). */
export const stillAdmitted = async (ctx: ServerContext, sn: string, credentialHash: string): Promise<boolean> => {
  const device = await enrolmentBySn(ctx.db, sn);
  return device !== undefined && device.revokedAt === null && sameHash(device.credentialHash, credentialHash);
};
