import { expect, it } from "vitest";
import fc from "fast-check";
import { endpoints, type Endpoint, type RequestOf } from "../../../core/model/contract/index.ts";
import { Eye, Pattern, Showtime, StimuliUpdate, StimulusSize, Strategy, TestType } from "../../../core/model/enums.ts";
import { call, login, ok } from "../harness.ts";
import type { ServerRef } from "./accounts.ts";

// Issue 15 §5: every call that takes an id, driven by a manager of one organisation with ids of the other (both ways:
// the demo clinic and the appointment clinic on one server). Each answers 404, exactly as for an id that exists
// nowhere, and changes nothing.

type Kind = "patient" | "measurement" | "appointment" | "examination" | "device" | "template" | "user" | "standalone";
type Ids = Record<Kind, string[]> & { deviceSn: string[] };

const config = {
  displayName: "X",
  eye: Eye.Right,
  pattern: Pattern.P24_2,
  strategy: Strategy.DS,
  stimuliUpdate: StimuliUpdate.Ms2000,
  stimuliSize: StimulusSize.III,
  stimuliShowtime: Showtime.Ms200,
  sorsStage: 36 as const,
  playSound: false,
  trackGaze: true,
  audioGuide: true,
  tutorial: false,
};
const patientBody = { name: "Other Org", uniqueId: "X-1", gender: 0, lang: "en", birthdate: "1970-01-01" } as const;
const amsler = (patientId: string, deviceSn: string) => ({
  patientId,
  type: TestType.Amsler,
  deviceSn,
  eye: Eye.Left,
  notes: "",
  config: null,
});

/** For each id-taking call: which kind of foreign id it gets and the call with it (own ids fill the other fields). */
const cases: {
  [E in Endpoint]?: {
    kind: Kind;
    input: (foreign: string, own: { patient: string; deviceSn: string; device: string }, foreignSn: string) => RequestOf<E>;
  };
} = {
  "user.update": { kind: "user", input: (id) => ({ query: { id }, body: { role: "user" } }) },
  "user.delete": { kind: "user", input: (id) => ({ query: { id } }) },
  "patient.get": { kind: "patient", input: (id) => ({ query: { id } }) },
  "patient.update": { kind: "patient", input: (id) => ({ query: { id }, body: patientBody as never }) },
  "patient.restore": { kind: "patient", input: (id) => ({ query: { id } }) },
  "patient.trash": { kind: "patient", input: (id) => ({ query: { id } }) },
  "patient.delete": { kind: "patient", input: (id) => ({ query: { id } }) },
  "perimetry.get": { kind: "measurement", input: (id) => ({ query: { id } }) },
  "perimetry.all": { kind: "patient", input: (patientId) => ({ query: { patientId } }) },
  "perimetry.register": {
    kind: "patient",
    input: (patientId, own) => ({ body: { ...config, patientId, deviceSn: own.deviceSn, notes: "" } }),
  },
  "perimetry.update": { kind: "measurement", input: (id) => ({ query: { id }, body: { notes: "forged" } }) },
  "perimetry.restore": { kind: "measurement", input: (id) => ({ query: { id } }) },
  "perimetry.trash": { kind: "measurement", input: (id) => ({ query: { id } }) },
  "perimetry.delete": { kind: "measurement", input: (id) => ({ query: { id } }) },
  "device.update": { kind: "device", input: (id) => ({ query: { id }, body: { alias: "Taken over" } }) },
  "device.standalone": {
    kind: "device",
    input: (_id, own, foreignSn) => ({ query: { deviceSn: foreignSn }, body: { ...config, patientId: own.patient } }),
  },
  "device.standaloneData": { kind: "standalone", input: (id) => ({ query: { id } }) },
  "device.reenrol": { kind: "device", input: (id) => ({ query: { id }, body: { secret: "credential" } }) },
  "device.revoke": { kind: "device", input: (id) => ({ query: { id } }) },
  "device.dragAndDropPerimetry": {
    kind: "measurement",
    input: (moved, own) => ({
      body: {
        movedPerimetryId: moved,
        from: { deviceId: own.device, perimetriesIds: [], revision: 0 },
        to: { deviceId: own.device, perimetriesIds: [moved], revision: 0 },
      },
    }),
  },
  "device.dragAndDropAppointment": {
    kind: "appointment",
    input: (moved, own) =>
      ({
        body: {
          movedAppointmentId: moved,
          from: { deviceId: own.device, appointmentsIds: [], revision: 0 },
          to: { deviceId: own.device, appointmentsIds: [moved], revision: 0 },
        },
      }) as never,
  },
  "appointment.registerWithExaminations": {
    kind: "patient",
    input: (patientId, own) => ({
      body: {
        audioGuide: true,
        tutorial: false,
        trackGaze: true,
        deviceSn: own.deviceSn,
        patientId,
        standaloneId: null,
        examinations: [amsler(patientId, own.deviceSn)],
      },
    }),
  },
  "appointment.update": {
    kind: "appointment",
    input: (id, own) => ({
      query: { id },
      body: { audioGuide: true, tutorial: false, trackGaze: true, deviceSn: own.deviceSn, patientId: own.patient, standaloneId: null },
    }),
  },
  "appointment.trash": { kind: "appointment", input: (id) => ({ query: { id } }) },
  "appointment.delete": { kind: "appointment", input: (id) => ({ query: { id } }) },
  "appointment.restore": { kind: "appointment", input: (id) => ({ query: { id } }) },
  "appointment.insertExaminations": {
    kind: "appointment",
    input: (appointmentId, own) => ({ query: { appointmentId }, body: { examinations: [amsler(own.patient, own.deviceSn)] } }),
  },
  "appointment.reorderExaminations": { kind: "appointment", input: (id) => ({ query: { id }, body: { newExaminationsIds: [] } }) },
  "examination.all": { kind: "patient", input: (patientId) => ({ query: { patientId } }) as never },
  "examination.update": { kind: "examination", input: (id) => ({ query: { id }, body: { id, notes: "forged" } }) as never },
  "examination.delete": { kind: "examination", input: (id) => ({ query: { id } }) },
  "examination.trash": { kind: "examination", input: (id) => ({ query: { id } }) },
  "examination.register": { kind: "patient", input: (patientId, own) => ({ body: amsler(patientId, own.deviceSn) }) as never },
  "template.update": {
    kind: "template",
    input: (id) => ({ query: { id }, body: { name: "Taken", tests: [{ type: "amsler", eye: 0, config: null }] } }) as never,
  },
  "template.copy": { kind: "template", input: (id) => ({ query: { id } }) },
  "template.delete": { kind: "template", input: (id) => ({ query: { id } }) },
};

/** The calls that take an id of a record: an id in the query, or a patient, device or moved record named in the body. */
const takesAnId = (e: (typeof endpoints)[number]) => {
  const q = e.query ? Object.keys((e.query as unknown as { fields?: object }).fields ?? {}) : [];
  const b = e.body ? Object.keys((e.body as unknown as { fields?: object }).fields ?? {}) : [];
  return q.some((k) => /id$|Sn$/i.test(k)) || b.some((k) => /^(patientId|movedPerimetryId|movedAppointmentId)$/.test(k));
};

const pools = async (server: ServerRef, org: string): Promise<Ids> => {
  const ids = async (sql: string) => (await server().db.query<{ id: string }>(sql, [org])).map((r) => r.id);
  return {
    patient: await ids("select id from patients where organisation_id = $1 order by id limit 5"),
    measurement: await ids("select id from measurements where organisation_id = $1 order by id limit 5"),
    appointment: await ids("select id from appointments where organisation_id = $1 order by id limit 5"),
    examination: await ids("select id from examinations where organisation_id = $1 order by id limit 5"),
    device: await ids("select id from devices where organisation_id = $1 order by id"),
    deviceSn: await ids("select device_sn as id from devices where organisation_id = $1 order by id"),
    template: await ids("select id from templates where organisation_id = $1 order by id"),
    user: await ids("select id from users where organisation_id = $1 order by id"),
    standalone: await ids("select id from standalone_configs where organisation_id = $1 order by id"),
  };
};

/** Everything an attack could touch, to see that a refused call changed nothing. */
const fingerprint = async (server: ServerRef) => {
  const parts = await Promise.all(
    ["patients", "measurements", "appointments", "examinations", "templates", "users", "standalone_configs"]
      .map(async (t) =>
        JSON.stringify(await server().db.query(`select md5(coalesce(string_agg(t::text, ',' order by t.id), '')) as h from ${t} t`)),
      )
      .concat(
        // Not the devices' live state (battery, last seen): the suite's virtual headsets keep beating.
        server()
          .db.query("select id, organisation_id, device_sn, alias from devices order by id")
          .then((r) => JSON.stringify(r)),
      ),
  );
  return parts.join("\n");
};

export const isolationCases = (server: ServerRef) => {
  it("every id-taking call of the contract is in the attack table", () => {
    const missing = endpoints
      .filter(takesAnId)
      .map((e) => e.name)
      .filter((n) => !(n in cases));
    expect(missing).toEqual([]);
  });

  it("property: a manager of one organisation calling with ids of the other gets 404 on every call, and nothing changes", async () => {
    const base = server().url;
    const orgs = await server().db.query<{ id: string; username: string }>(
      "select u.organisation_id as id, u.username from users u where u.username in ('manager', 'appt.manager') order by u.username",
    );
    // A stand-alone setting in each organisation, so device/standalone_data has ids to steal.
    const side = await Promise.all(
      orgs.map(async (o) => {
        const token = await login(base, o.username);
        const own = await pools(server, o.id);
        await ok(
          base,
          "device.standalone",
          { query: { deviceSn: own.deviceSn[0]! }, body: { ...config, patientId: own.patient[0]! } },
          token,
        );
        return { username: o.username, org: o.id, token, own: await pools(server, o.id) };
      }),
    );
    const [a, b] = side as [(typeof side)[number], (typeof side)[number]];
    const names = Object.keys(cases) as Endpoint[];
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...names), fc.boolean(), fc.nat(), async (name, aAttacks, pick) => {
        const [attacker, victim] = aAttacks ? [a, b] : [b, a];
        const spec = cases[name]!;
        const pool = victim.own[spec.kind];
        fc.pre(pool.length > 0);
        const foreign = pool[pick % pool.length]!;
        const own = { patient: attacker.own.patient[0]!, deviceSn: attacker.own.deviceSn[0]!, device: attacker.own.device[0]! };
        const before = await fingerprint(server);
        const answer = await call(
          base,
          name,
          spec.input(foreign, own, victim.own.deviceSn[pick % victim.own.deviceSn.length]!) as never,
          attacker.token,
        );
        expect(
          [answer.status, answer.responseType],
          `${attacker.username} ${name} with ${spec.kind} ${foreign}: ${answer.error?.message}`,
        ).toEqual([404, "not_found"]);
        expect(await fingerprint(server), `${name} changed data of another organisation`).toBe(before);
        seen.add(name);
      }),
      // Every call both ways first, then random calls, directions and ids.
      {
        numRuns: 40 + names.length * 2,
        examples: names.flatMap((n) => [[n, true, 0] as [Endpoint, boolean, number], [n, false, 0] as [Endpoint, boolean, number]]),
      },
    );
    // Every call was driven at least once (each has ids to steal in at least one direction).
    expect(names.filter((n) => !seen.has(n))).toEqual([]);
  }, 120_000);
};
