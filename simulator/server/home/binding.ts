import { isTestRunning } from "../../../core/device/status.ts";
import { type ProgrammeRefusal, checkProgramme } from "../../../core/home/index.ts";
import type { HomeEndReason, HomeProgrammeBody, HomeProgrammeView } from "../../../core/model/contract/index.ts";
import { Eye } from "../../../core/model/enums.ts";
import type { StandaloneConfig } from "../../../core/model/measurement.ts";
import type { Patient } from "../../../core/model/patient.ts";
import { measurementConfigWith } from "../../../core/rules/defaults.ts";
import { displayNameFor } from "../../../core/rules/display-name.ts";
import { normaliseConfig } from "../../../core/rules/form-dependencies.ts";
import type { Variant } from "../../../core/rules/form-context.ts";
import type { ServerContext } from "../context.ts";
import type { Queryable } from "../db/database.ts";
import { multiTestsOf } from "../handlers/organisation-flags.ts";
import { type Effects, nowIso, write } from "../handlers/write.ts";
import { Failure, invalid, notFound } from "../http/failure.ts";
import * as devices from "../store/devices.ts";
import { enrolmentBySn } from "../store/enrolment.ts";
import * as home from "../store/home.ts";
import { newId } from "../store/ids.ts";
import { getPatient } from "../store/patients.ts";

// A home programme binds a lent headset to one patient (issue 31 §1, §5). Binding writes the programme's test as the
// headset's stand-alone setting (the seeds' stand-alone mode runs it unattended); ending it (returned, revoked, ended)
// clears that setting in the same transaction, so from the commit on the headset is sent nothing of the patient and
// its uploads for the programme are refused (home/uploads.ts).

/** Each rule's words: the seeds' rules quoted by section, ours named as ours. */
const ruleWords: Record<ProgrammeRefusal["rule"], string> = {
  "pattern-offered": "scheduling seed §5 'Allowed options per pattern' does not list the pattern",
  "strategy-for-pattern": "scheduling seed §5 'Allowed options per pattern' does not offer the strategy for the pattern",
  "eye-for-pattern": "scheduling seed §5: the eye is not offered for the pattern in stand-alone mode ('Both' is the two eyes)",
  "eyes-listed-once": "ours: at least one eye, none twice",
  dates: "ours: real calendar dates, the end not before the start",
  "frequency-range": "ours: every 2 to 90 days",
  "reminder-time": "ours: a time of day HH:MM",
  "time-zone": "ours: an IANA time zone",
};

/** checkProgramme's first refusal as 400 naming the rule and the value refused. */
const refuseByRule = (body: HomeProgrammeBody) => {
  const first = checkProgramme(body)[0];
  if (first) throw invalid(`body.${first.field}`, `rule ${first.rule} (${ruleWords[first.rule]}): ${first.value} is refused`);
};

/**
 * The test the headset repeats: the programme's pattern, strategy and eyes (two eyes run as 'Both', each its own
 * result, as a stand-alone run of 'Both' does), the form's defaults for the rest through core/rules, the audio guide and
 * gaze tracking on (unattended), the tutorial on first use where the seeds allow it ("Tutorial needs audio guide on, gaze
 * tracking on (in one variant) and patient language English", scheduling §5): on until the first home result is stored.
 */
export const homeTestConfig = (p: HomeProgrammeBody, patient: Patient, variant: Variant): StandaloneConfig => {
  const chosen = measurementConfigWith(
    { patientId: p.patientId, deviceSn: p.deviceSn, displayName: displayNameFor(patient.name), eye: p.eyes[0]!, pattern: p.pattern },
    variant,
  );
  const c = normaliseConfig(
    { ...chosen, strategy: p.strategy, audioGuide: true, trackGaze: true, tutorial: true },
    { mode: "standalone", variant, patientLanguage: patient.lang },
  );
  const { notes: _n, deviceSn: _d, ...config } = c;
  return { ...config, patientId: p.patientId, eye: p.eyes.length > 1 ? Eye.Both : c.eye };
};

const deviceUpdate = async (ctx: ServerContext, tx: Queryable, fx: Effects, org: string, sn: string) => {
  const row = await devices.deviceBySn(tx, org, sn);
  if (row) fx.event(org, "device", "update", devices.deviceChange(ctx.presence.overlay(row)), sn);
};

export const bindProgramme = async (
  ctx: ServerContext,
  org: string,
  createdBy: string,
  body: HomeProgrammeBody,
): Promise<HomeProgrammeView> => {
  refuseByRule(body);
  const sn = body.deviceSn;
  const view = await write(ctx, async (tx, fx) => {
    await devices.lockDevices(tx, [sn]);
    const d = await devices.deviceBySn(tx, org, sn);
    if (!d) throw notFound("Device", "body.deviceSn");
    const patient = await getPatient(tx, org, body.patientId);
    if (!patient || patient.trashedAt !== null) throw notFound("Patient", "body.patientId");
    if ((await enrolmentBySn(tx, sn))?.revokedAt)
      throw new Failure("conflict", `Headset ${sn} was revoked; enrol it again first`, "body.deviceSn");
    const bound = await home.boundProgramme(tx, sn);
    if (bound) throw new Failure("conflict", `Headset ${sn} is bound to another active home programme; end it first`, "body.deviceSn");
    if (isTestRunning({ hasLiveProgress: false, connection: d.connection, status: d.status }))
      throw new Failure("device_busy", "Stand-alone mode cannot change while another measurement runs");
    const config = homeTestConfig(body, patient, (await multiTestsOf(tx, org)) ? "newer" : "older");
    const now = nowIso(ctx);
    const standaloneId = newId();
    await tx.query("insert into standalone_configs (id, organisation_id, device_sn, body, created_at) values ($1, $2, $3, $4, $5)", [
      standaloneId,
      org,
      sn,
      JSON.stringify(config),
      now,
    ]);
    const id = newId();
    await home.insertProgramme(tx, org, { ...body, id, standaloneId, createdBy, createdAt: now });
    await devices.setStandaloneId(tx, sn, standaloneId);
    fx.standaloneChanged(sn);
    await deviceUpdate(ctx, tx, fx, org, sn);
    return (await home.programmeById(tx, org, id))!;
  });
  await ctx.devices.pushQueue(sn); // while bound its queue is empty (device/hub.ts)
  return view;
};

/** Ends the headset's binding inside a transaction (device/revoke's); the programme ended, if one was active. */
export const endBindingIn = async (tx: Queryable, sn: string, reason: HomeEndReason, now: string) => {
  const p = await home.boundProgramme(tx, sn);
  if (!p || !(await home.endProgramme(tx, p.id, reason, now))) return undefined;
  await tx.query("update devices set standalone_id = null where device_sn = $1 and standalone_id = $2", [sn, p.standaloneId]);
  return p;
};

/** Ends a programme of the organisation (returned, ended): the headset's setting is cleared and pushed at once. */
export const endProgramme = async (ctx: ServerContext, org: string, id: string, reason: HomeEndReason): Promise<HomeProgrammeView> => {
  const view = await write(ctx, async (tx, fx) => {
    const p = await home.programmeById(tx, org, id);
    if (!p) throw notFound("Home programme");
    await devices.lockDevices(tx, [p.deviceSn]);
    if (!(await home.endProgramme(tx, p.id, reason, nowIso(ctx))))
      throw new Failure("conflict", `The home programme has ended already (${p.endedReason ?? "ended"})`);
    await tx.query("update devices set standalone_id = null where device_sn = $1 and standalone_id = $2", [p.deviceSn, p.standaloneId]);
    fx.standaloneChanged(p.deviceSn);
    await deviceUpdate(ctx, tx, fx, org, p.deviceSn);
    return (await home.programmeById(tx, org, id))!;
  });
  await ctx.devices.pushQueue(view.deviceSn);
  return view;
};
