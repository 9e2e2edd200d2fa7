import { isValidSerial } from "../../../core/device/enrolment.ts";
import type { EnrolmentIssued, EnrolmentSecretKind, HeadsetEnrolment } from "../../../core/model/enrolment.ts";
import type { ServerContext } from "../context.ts";
import { write } from "../handlers/write.ts";
import { Failure, invalid, notFound } from "../http/failure.ts";
import { deviceById, withQueues } from "../store/devices.ts";
import * as enrolment from "../store/enrolment.ts";
import { newId } from "../store/ids.ts";
import { log } from "../log.ts";
import { endBindingIn } from "../home/binding.ts";

// Enrolling, enrolling again and revoking headsets (issue 15, point 1): one place for the API calls
// (handlers/enrolment.ts) and for the virtual headsets npm start and the simulator control run, which enrol through
// the same pairing codes. A change of credential closes the live connection of the old one after the commit.

export interface Actor {
  readonly organisationId: string;
  /** Who asked, for the log: a username, or "simulator". */
  readonly name: string;
}

const ALIAS_MAX = 64;

/** A new headset of the organisation with its credential or pairing code. */
export const enrolHeadset = async (
  ctx: ServerContext,
  actor: Actor,
  input: { deviceSn: string; alias?: string | undefined; secret: EnrolmentSecretKind },
): Promise<EnrolmentIssued> => {
  const sn = input.deviceSn.trim();
  if (!isValidSerial(sn)) throw invalid("body.deviceSn", "a serial is 1 to 64 letters, digits, dots, dashes or underscores");
  const alias = (input.alias ?? "").trim() || sn;
  if (alias.length > ALIAS_MAX) throw invalid("body.alias", `at most ${ALIAS_MAX} characters`);
  const org = actor.organisationId;
  const issued = await write(ctx, async (tx, fx) => {
    const id = newId();
    if (!(await enrolment.insertEnrolledDevice(tx, org, id, sn, alias, ctx.now()))) {
      const other = await enrolment.enrolmentBySn(tx, sn);
      throw other?.organisationId === org
        ? new Failure("conflict", `Headset ${sn} is already enrolled here; enrol it again to issue a new credential`, "body.deviceSn")
        : new Failure("conflict", `Headset ${sn} is registered with another organisation`, "body.deviceSn");
    }
    const secret = await enrolment.issueSecret(tx, id, input.secret, ctx.now());
    fx.event(org, "device", "insert", await withQueues(tx, org, (await deviceById(tx, org, id))!), sn);
    return { headset: enrolment.enrolmentView((await enrolment.enrolmentById(tx, org, id))!), secret };
  });
  log.info("device_enrolled", { device: sn, by: actor.name, secret: input.secret });
  return issued;
};

/** A new credential or pairing code for a headset of the organisation; the old one stops working at once. */
export const reenrolHeadset = async (
  ctx: ServerContext,
  actor: Actor,
  id: string,
  secret: EnrolmentSecretKind,
): Promise<EnrolmentIssued> => {
  const org = actor.organisationId;
  const issued = await ctx.db.transaction(async (tx) => {
    const row = await enrolment.enrolmentById(tx, org, id);
    if (!row) throw notFound("Device");
    const s = await enrolment.issueSecret(tx, id, secret, ctx.now());
    return { headset: enrolment.enrolmentView((await enrolment.enrolmentById(tx, org, id))!), secret: s };
  });
  const sn = issued.headset.deviceSn;
  ctx.devices.refuse(sn, "revoked", `Headset ${sn} was enrolled again; its old credential no longer works`);
  log.info("device_reenrolled", { device: sn, by: actor.name, secret });
  return issued;
};

/** The headset's credential and pairing code stop working and its live connection closes. */
export const revokeHeadset = async (ctx: ServerContext, actor: Actor, id: string): Promise<HeadsetEnrolment> => {
  const org = actor.organisationId;
  const view = await ctx.db.transaction(async (tx) => {
    const row = await enrolment.enrolmentById(tx, org, id);
    if (!row) throw notFound("Device");
    await enrolment.revoke(tx, id, ctx.now());
    // A home programme's binding ends with the credential (issue 31 §5); enrolling again keeps it (the same headset).
    await endBindingIn(tx, row.deviceSn, "revoked", new Date(ctx.now()).toISOString());
    return enrolment.enrolmentView((await enrolment.enrolmentById(tx, org, id))!);
  });
  ctx.devices.refuse(view.deviceSn, "revoked", `Headset ${view.deviceSn} was revoked`);
  log.info("device_revoked", { device: view.deviceSn, by: actor.name });
  return view;
};

/**
 * Pairing codes for virtual headsets whose devices are registered (npm start, `isopter simulate headsets add`): each
 * serial is enrolled again with a fresh code, which its headset exchanges in its hello as a real one would.
 */
export const pairingCodesFor = async (ctx: ServerContext, serials: ReadonlyArray<string>): Promise<Map<string, string>> => {
  const codes = new Map<string, string>();
  for (const sn of serials) {
    const row = await enrolment.enrolmentBySn(ctx.db, sn);
    if (!row) continue;
    const issued = await reenrolHeadset(ctx, { organisationId: row.organisationId, name: "simulator" }, row.id, "pairingCode");
    codes.set(sn, issued.secret.value);
  }
  return codes;
};
