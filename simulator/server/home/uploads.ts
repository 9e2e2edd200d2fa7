import type { HeadsetMessage, StandaloneResult } from "../../../core/device/protocol.ts";
import { isRepeatSlot, slotFor } from "../../../core/home/index.ts";
import type { ServerContext } from "../context.ts";
import { recordStandaloneOnce } from "../handlers/results.ts";
import { nowIso, write } from "../handlers/write.ts";
import { log } from "../log.ts";
import { triageOnArrival } from "../review/arrival.ts";
import { lockDevices } from "../store/devices.ts";
import * as home from "../store/home.ts";
import { repeatsOf } from "./repeats.ts";

// A home result arriving over the device socket (issue 31 §1, §5, "Bad input"): a standaloneResult whose stand-alone
// test is a home programme's. Checked in this order, under the headset's row lock (so an end of the programme and an
// upload come one after the other):
//   the binding ended (returned, revoked, ended)  refused: nothing of the patient is written after it
//   the same upload again (device, resultId)      recognised as already stored (standalone_results' key), acknowledged
//   no session due (core/home slotFor)            refused with sessionFor's reason (before-start, after-end, other-eye,
//                                                 other-test, already-done, invalid-time, in-the-future: taken past
//                                                 the server's now by more than FUTURE_TOLERANCE_MS)
// else stored once: a measurement (results.ts) and its home_results row, unique per programme, session and eye; a
// result its regular session no longer takes fills a pending repeat open on its date (core/home/repeat.ts: session
// index -number), and the headset is sent its schedule again without that repeat.
// Every outcome is audited with the serial and the address the upload came from; refusals are logged with the reason.
// A lent headset's other uploads are refused before any of this (refusedWhileLent).

export type HomeUploadOutcome =
  | { readonly kind: "stored"; readonly measurementId: string }
  | { readonly kind: "already-stored" }
  | { readonly kind: "refused"; readonly reason: string };

type Upload = typeof StandaloneResult.Type;

const receive = async (ctx: ServerContext, p: home.ProgrammeRow, sn: string, m: Upload, address: string): Promise<HomeUploadOutcome> =>
  write(ctx, async (tx, fx) => {
    await lockDevices(tx, [sn]);
    // Gone (its patient deleted for good) counts as ended.
    const current = await home.programmeById(tx, p.organisationId, p.id);
    if (current?.state !== "active") return { kind: "refused", reason: current?.endedReason ?? "ended" };
    const seen = await tx.query("select 1 from standalone_results where device_sn = $1 and result_id = $2", [sn, m.resultId]);
    if (seen.length) return { kind: "already-stored" };
    const { slots } = await home.storedResults(tx, current);
    const at = nowIso(ctx);
    const match = slotFor(home.rulesOf(current), m.result, slots, { now: at, repeats: await repeatsOf(tx, p.id) });
    if (!match.due) return { kind: "refused", reason: `not-due: ${match.reason}` };
    const stored = await recordStandaloneOnce(tx, fx, p.organisationId, sn, m.standaloneId, m.resultId, m.result, at);
    if (!stored) return { kind: "already-stored" };
    const slot = { index: match.session.index, eye: match.eye };
    await home.insertHomeResult(tx, {
      programmeId: p.id,
      slot,
      takenAt: m.result.takenAt,
      measurementId: stored.id,
      deviceSn: sn,
      resultId: m.resultId,
      address,
      receivedAt: at,
    });
    if (isRepeatSlot(slot)) fx.standaloneChanged(sn); // the schedule sent lists pending repeats only
    if (slots.length === 0) {
      // The tutorial runs on first use only (binding.ts): the setting is sent again without it.
      await tx.query("update standalone_configs set body = jsonb_set(body, '{tutorial}', 'false'::jsonb) where id = $1", [p.standaloneId]);
      fx.standaloneChanged(sn);
    }
    return { kind: "stored", measurementId: stored.id };
  });

/** Receives a home result and records the outcome in the audit trail (and the log, when refused). */
export const receiveHomeResult = async (
  ctx: ServerContext,
  p: home.ProgrammeRow,
  sn: string,
  m: Upload,
  address: string,
): Promise<HomeUploadOutcome> => {
  const outcome = await receive(ctx, p, sn, m, address);
  const stored = outcome.kind === "stored";
  ctx.audit.record({
    organisationId: p.organisationId,
    at: nowIso(ctx),
    actorKind: "headset",
    actorId: sn,
    actorName: sn,
    address,
    action: "device.homeResult",
    outcome: outcome.kind === "refused" ? `refused: ${outcome.reason}` : outcome.kind === "stored" ? "success" : "already-stored",
    patientId: p.patientId,
    recordType: stored ? "measurement" : "home_programme",
    recordId: stored ? outcome.measurementId : p.id,
  });
  if (outcome.kind === "refused")
    log.warn("home_result_refused", { device: sn, from: address, programme: p.id, result: m.resultId, reason: outcome.reason });
  // The review queue's triage, after the result's commit: it never throws (review/arrival.ts).
  if (stored) await triageOnArrival(ctx, p, { ...outcome, takenAt: m.result.takenAt, eye: m.result.eye }, { deviceSn: sn, address });
  return outcome;
};

/** The refusal of an upload from a lent headset that is not its programme's. */
export const LENT = "lent for a home programme";

type DeviceUpload = Extract<HeadsetMessage, { type: "result" | "examinationResult" | "standaloneResult" }>;

/**
 * A headset lent for a home programme writes nothing but its programme's results (issue 31 §5: "Its credential sees
 * only its bound patient's programme"): any other upload (a queued measurement's, an appointment's, another stand-alone
 * run's, whosever it names) is refused, audited and logged. Our choice: a result of a run before the headset was lent
 * is refused too; the clinic empties the outbox before lending it.
 */
export const refusedWhileLent = async (ctx: ServerContext, sn: string, m: DeviceUpload, address: string): Promise<boolean> => {
  const lent = await home.boundProgramme(ctx.db, sn);
  if (!lent || (m.type === "standaloneResult" && m.standaloneId === lent.standaloneId)) return false;
  const reason = LENT;
  ctx.audit.record({
    organisationId: lent.organisationId,
    at: nowIso(ctx),
    actorKind: "headset",
    actorId: sn,
    actorName: sn,
    address,
    action: `device.${m.type}`,
    outcome: `refused: ${reason}`,
    recordType: "home_programme",
    recordId: lent.id,
  });
  log.warn("device_result_refused", { device: sn, from: address, upload: m.type, reason });
  return true;
};
