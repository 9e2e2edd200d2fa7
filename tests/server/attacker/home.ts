import { expect, it } from "vitest";
import { Eye, Pattern, Strategy } from "../../../core/model/enums.ts";
import { measurementConfigWith } from "../../../core/rules/defaults.ts";
import { credentialFor, fakeHeadset, login, ok, raw } from "../harness.ts";
import { homeResult, programmeBody } from "../home-fixtures.ts";
import type { ServerRef } from "./accounts.ts";

// Issue 31 §5 against the running server: "a home headset is a device in a stranger's house. Its credential sees only
// its bound patient's programme. Revoking or returning the headset ends that at once." The attacker holds a lent
// headset's credential: it is no key to the API, the socket sends it the bound patient's programme and nothing of
// anyone else's, it can write nothing but its programme's results, and after the return or the revocation nothing of
// that patient either.

type Headset = Awaited<ReturnType<typeof fakeHeadset>>;

const SN = "VR-0002"; // no virtual headset runs it in the attacker suite

const config = (patientId: string) => {
  const {
    deviceSn: _d,
    notes: _n,
    ...c
  } = measurementConfigWith({
    patientId,
    deviceSn: SN,
    displayName: "Clinic",
    eye: Eye.Right,
    pattern: Pattern.P24_2,
    strategy: Strategy.DS,
  });
  return { ...c, patientId };
};

export const homeAttackCases = (server: ServerRef) => {
  const base = () => server().url;
  const patient = async (token: string, name: string) =>
    ok(
      base(),
      "patient.register",
      { body: { name, uniqueId: `A-${Math.random().toString(36).slice(2, 10)}`, gender: 0, lang: "en", birthdate: "1961-06-06" } },
      token,
    );
  const storedOf = async (patientId: string) =>
    (
      await server().db.query<{ n: number }>("select count(*)::int as n from measurements where patient_id = $1 and result is not null", [
        patientId,
      ])
    )[0]!.n;
  const upload = async (h: Headset, standaloneId: string, resultId: string, result: unknown) => {
    h.send({ type: "standaloneResult", standaloneId, resultId, result });
    return h.next((m) => m.type === "resultAccepted" && m.resultId === resultId);
  };
  /** The API with the headset's credential as a bearer token, for the other patient's data and the bound one's. */
  const apiWith = async (credential: string, paths: string[]) =>
    Promise.all(paths.map(async (p) => (await raw(base(), "GET", p, undefined, credential)).status));

  it("a home credential asking for another patient's data is refused: no API, only its programme on the socket, no upload into another patient", async () => {
    const manager = await login(base(), "manager");
    const [bound, other] = [await patient(manager, "Home Bound"), await patient(manager, "Home Stranger")];
    // The other patient's records on the same headset from before it was lent: a stand-alone setting, a queued test.
    const otherSetting = await ok(base(), "device.standalone", { query: { deviceSn: SN }, body: config(other.id) }, manager);
    const [otherQueued] = await ok(base(), "perimetry.register", { body: { ...config(other.id), deviceSn: SN, notes: "" } }, manager);
    const credential = await credentialFor(server(), SN);
    const made = await ok(base(), "home.programmeCreate", { body: programmeBody(bound.id, SN) }, manager);
    const h = await fakeHeadset(server(), SN, { credential });
    await h.next((m) => m.type === "standalone" && m.standaloneId === made.standaloneId);
    expect(await h.next((m) => m.type === "queue")).toMatchObject({ items: [] });
    expect(
      await apiWith(credential, [
        `patient?id=${other.id}`,
        `perimetry/all?patientId=${other.id}`,
        `device/standalone_data?id=${otherSetting!.id}`,
        `home/programme/all?patientId=${other.id}`,
        "patient/all",
        `home/programme/all?patientId=${bound.id}`,
      ]),
    ).toEqual([401, 401, 401, 401, 401, 401]);
    // Uploads naming the other patient's records: its old stand-alone setting, its queued measurement.
    const now = new Date().toISOString();
    expect((await upload(h, otherSetting!.id, "steal-1", homeResult(other.id, now))).refused).toBe("lent for a home programme");
    h.send({ type: "result", measurementId: otherQueued!.id, result: homeResult(other.id, now) });
    // A programme result claiming the other patient is stored as the bound patient's (the server stamps it).
    expect((await upload(h, made.standaloneId, "own-1", homeResult(other.id, now))).refused).toBeUndefined();
    expect([await storedOf(other.id), await storedOf(bound.id)]).toEqual([0, 1]);
    expect(JSON.stringify(h.received)).not.toContain(other.id);
    await server().ctx.audit.flush();
    const refusals = await server().db.query<{ action: string; outcome: string }>(
      "select action, outcome from audit_events where actor_id = $1 and outcome like 'refused:%' order by id desc limit 2",
      [SN],
    );
    expect(refusals.map((r) => r.action).sort()).toEqual(["device.result", "device.standaloneResult"]);
    await ok(base(), "home.programmeEnd", { query: { id: made.id }, body: { reason: "ended" } }, manager);
    await h.close();
  });

  it("a returned headset's credential sees and writes nothing of the patient; a revoked one is refused at the door", async () => {
    const manager = await login(base(), "manager");
    const p = await patient(manager, "Home Back");
    const credential = await credentialFor(server(), SN);
    const made = await ok(base(), "home.programmeCreate", { body: programmeBody(p.id, SN) }, manager);
    const h = await fakeHeadset(server(), SN, { credential });
    await h.next((m) => m.type === "standalone" && m.standaloneId === made.standaloneId);
    await ok(base(), "home.programmeEnd", { query: { id: made.id }, body: { reason: "returned" } }, manager);
    await h.next((m) => m.type === "standalone" && m.standaloneId === null);
    const late = await upload(h, made.standaloneId, "after-return", homeResult(p.id, new Date().toISOString()));
    expect(late.refused).toBe("returned");
    await h.close();
    // Connecting again with the same credential: welcomed as a clinic headset, told nothing of the patient.
    const again = await fakeHeadset(server(), SN, { credential });
    await again.next((m) => m.type === "standalone");
    await again.next((m) => m.type === "queue");
    expect(JSON.stringify(again.received)).not.toContain(p.id);
    expect(await apiWith(credential, [`home/programme/all?patientId=${p.id}`, `perimetry/all?patientId=${p.id}`])).toEqual([401, 401]);
    expect(await storedOf(p.id)).toBe(0);
    await again.close();
    // Revoked: the binding ends with the credential, which no longer opens the socket.
    const lent = await ok(base(), "home.programmeCreate", { body: programmeBody(p.id, SN) }, manager);
    const device = (await ok(base(), "device.enrolments", {}, manager)).find((d) => d.deviceSn === SN)!;
    await ok(base(), "device.revoke", { query: { id: device.id } }, manager);
    expect((await ok(base(), "home.programmes", { query: { patientId: p.id } }, manager)).find((x) => x.id === lent.id)).toMatchObject({
      state: "ended",
      endedReason: "revoked",
    });
    const refused = await fakeHeadset(server(), SN, { credential });
    expect(refused.received.map((m) => m.type)).toEqual(["refused"]);
    await credentialFor(server(), SN); // enrolled again for the cases after these
  });
};
