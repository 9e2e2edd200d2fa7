import { expect, it } from "vitest";
import type { Endpoint } from "../../core/model/contract/index.ts";
import { Eye, Pattern, Strategy } from "../../core/model/enums.ts";
import type { call, ok } from "./harness.ts";
import { dayFromNow, homeResult, programmeBody } from "./home-fixtures.ts";

// The contract suite's part for home programmes (issue 31 §1, §3): prescribe one, refused naming the seeds' rule; one
// active programme per headset (409); the headset's stand-alone setting is the programme's test; a patient's list;
// adherence (core/home); returned ends the binding at once and the headset may be lent again.

interface Calls {
  c<E extends Endpoint>(name: E, input: Parameters<typeof call<E>>[2], token?: string): ReturnType<typeof call<E>>;
  o<E extends Endpoint>(name: E, input: Parameters<typeof ok<E>>[2], token?: string): ReturnType<typeof ok<E>>;
  newPatient(name: string): Promise<{ id: string }>;
  /** A headset of the organisation no test runs on. */
  deviceSn(): Promise<string>;
  userToken(): Promise<string>;
}

export const homeContractCases = ({ c, o, newPatient, deviceSn, userToken }: Calls) => {
  it("home programmes: a programme the seeds' rules forbid is refused naming the rule; nothing is bound", async () => {
    const p = await newPatient("Home Rules");
    const sn = await deviceSn();
    const refused = async (over: Parameters<typeof programmeBody>[2]) => {
      const a = await c("home.programmeCreate", { body: programmeBody(p.id, sn, over) });
      expect([a.status, a.responseType]).toEqual([400, "validation_error"]);
      return [a.error?.field, a.error?.message.match(/rule ([a-z-]+)/)?.[1]];
    };
    // "SORS strategies are not offered for 10-2 or 30-2" (scheduling §5)
    expect(await refused({ pattern: Pattern.P10_2, strategy: Strategy.SORS })).toEqual(["body.strategy", "strategy-for-pattern"]);
    // Esterman is binocular only; stand-alone mode offers no 'Both'.
    expect(await refused({ pattern: Pattern.Esterman, strategy: Strategy.OneLevel })).toEqual(["body.eyes", "eye-for-pattern"]);
    expect(await refused({ eyes: [Eye.Both] })).toEqual(["body.eyes", "eye-for-pattern"]);
    expect(await refused({ end: dayFromNow(-30) })).toEqual(["body.end", "dates"]);
    expect(await refused({ frequency: { kind: "every", days: 1 } })).toEqual(["body.frequency", "frequency-range"]);
    expect(await o("home.programmes", { query: { patientId: p.id } })).toEqual([]);
  });

  it("home programmes: prescribe, one per headset, the stand-alone setting is its test, list, adherence, returned, lent again", async () => {
    const p = await newPatient("Home Lent");
    const other = await newPatient("Home Other");
    const sn = await deviceSn();
    const made = await o("home.programmeCreate", { body: programmeBody(p.id, sn) }, await userToken());
    expect(made).toMatchObject({ patientId: p.id, deviceSn: sn, state: "active", endedAt: null, endedReason: null });
    // One active programme per headset; its stand-alone setting cannot be changed from the lane while lent.
    const again = await c("home.programmeCreate", { body: programmeBody(other.id, sn) });
    expect([again.status, again.responseType, again.error?.field]).toEqual([409, "conflict", "body.deviceSn"]);
    const off = await c("device.standalone", { query: { deviceSn: sn }, body: null });
    expect([off.status, off.responseType]).toEqual([409, "conflict"]);
    // The seeds' stand-alone data: both eyes run as 'Both', audio guide and gaze on, the tutorial on first use (English).
    const data = await o("device.standaloneData", { query: { id: made.standaloneId } });
    expect(data.config).toMatchObject({
      patientId: p.id,
      eye: Eye.Both,
      pattern: Pattern.P24_2,
      strategy: Strategy.DS,
      audioGuide: true,
      trackGaze: true,
      tutorial: true,
    });
    expect((await o("device.all", {})).find((d) => d.deviceSn === sn)?.standaloneId).toBe(made.standaloneId);
    // Its results come from the headset, checked against the sessions: not through perimetry/upload.
    const result = homeResult(p.id, new Date().toISOString());
    const byHttp = await c("perimetry.upload", { body: { deviceSn: sn, measurementId: null, standaloneId: made.standaloneId, result } });
    expect([byHttp.status, byHttp.responseType, byHttp.error?.field]).toEqual([409, "conflict", "body.standaloneId"]);
    expect((await o("home.programmes", { query: { patientId: p.id } })).map((x) => x.id)).toEqual([made.id]);
    expect(await o("home.programmes", { query: { patientId: other.id } })).toEqual([]);
    // Three weekly windows have closed since the start three weeks ago, none done: due 3, missed 3, rate 0.
    expect(await o("home.adherence", { query: { id: made.id } })).toEqual({
      programmeId: made.id,
      patientId: p.id,
      today: dayFromNow(0),
      due: 3,
      done: 0,
      missed: 3,
      partial: 0,
      rate: 0,
    });
    const returned = await o("home.programmeEnd", { query: { id: made.id }, body: { reason: "returned" } });
    expect(returned).toMatchObject({ state: "ended", endedReason: "returned", endedAt: expect.any(String) });
    expect((await o("device.all", {})).find((d) => d.deviceSn === sn)?.standaloneId).toBeNull();
    const twice = await c("home.programmeEnd", { query: { id: made.id }, body: { reason: "ended" } });
    expect([twice.status, twice.responseType]).toEqual([409, "conflict"]);
    // Lent again, to the other patient; ended by the clinician.
    const next = await o("home.programmeCreate", {
      body: programmeBody(other.id, sn, { start: dayFromNow(0), frequency: { kind: "monthly" } }),
    });
    expect(await o("home.adherence", { query: { id: next.id } })).toMatchObject({ due: 0, missed: 0, rate: null });
    expect(await o("home.programmeEnd", { query: { id: next.id }, body: { reason: "ended" } })).toMatchObject({ endedReason: "ended" });
  });

  it("home programmes: unknown patient, headset or programme is 404", async () => {
    const p = await newPatient("Home Nowhere");
    const sn = await deviceSn();
    const noPatient = await c("home.programmeCreate", { body: programmeBody("nowhere", sn) });
    expect([noPatient.status, noPatient.error?.field]).toEqual([404, "body.patientId"]);
    const noDevice = await c("home.programmeCreate", { body: programmeBody(p.id, "VR-NOWHERE") });
    expect([noDevice.status, noDevice.error?.field]).toEqual([404, "body.deviceSn"]);
    expect((await c("home.programmes", { query: { patientId: "nowhere" } })).status).toBe(404);
    expect((await c("home.programmeEnd", { query: { id: "nowhere" }, body: { reason: "returned" } })).status).toBe(404);
    expect((await c("home.adherence", { query: { id: "nowhere" } })).status).toBe(404);
  });
};
