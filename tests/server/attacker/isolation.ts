import { expect, it } from "vitest";
import fc from "fast-check";
import { endpoints, type Endpoint, type RequestOf } from "../../../core/model/contract/index.ts";
import { Eye, Pattern, Showtime, StimuliUpdate, StimulusSize, Strategy, TestType } from "../../../core/model/enums.ts";
import { call, login, ok } from "../harness.ts";
import { demoResult } from "../../../simulator/server/demo/results.ts";
import { openApiDocument } from "../../../simulator/server/http/openapi.ts";
import type { ServerRef } from "./accounts.ts";
import { programmeBody } from "../home-fixtures.ts";

// Issue 15 §5: every call that takes an id, driven by a manager of one organisation with ids of the other (both ways:
// the demo clinic and the appointment clinic on one server). Each answers 404, exactly as for an id that exists
// nowhere, and changes nothing.

type Kind = "patient" | "measurement" | "appointment" | "examination" | "device" | "template" | "user" | "standalone" | "home" | "review";
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
  "secondFactor.reset": { kind: "user", input: (id) => ({ query: { id } }) },
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
  // Importing onto a patient's page, and fetching a patient's priors from the PACS (issue 29).
  "results.import": { kind: "patient", input: (patientId) => ({ body: { files: [emptyCsv], dryRun: true, patientId } }) },
  "pacs.fetch": { kind: "patient", input: (patientId) => ({ body: { patientId, dryRun: true } }) },
  // Home programmes (issue 31).
  "home.programmeCreate": { kind: "patient", input: (patientId, own) => ({ body: programmeBody(patientId, own.deviceSn) }) },
  "home.programmes": { kind: "patient", input: (patientId) => ({ query: { patientId } }) },
  "home.programmeEnd": { kind: "home", input: (id) => ({ query: { id }, body: { reason: "returned" } }) },
  "home.adherence": { kind: "home", input: (id) => ({ query: { id } }) },
  // The review queue's items (issue 31 §2).
  "review.mark": { kind: "review", input: (id) => ({ query: { id }, body: { note: "forged" } }) },
  "review.note": { kind: "review", input: (id) => ({ query: { id }, body: { note: "forged" } }) },
  "review.repeat": { kind: "review", input: (id) => ({ query: { id } }) },
  "review.book": { kind: "review", input: (id, own) => ({ query: { id }, body: { deviceSn: own.deviceSn } }) },
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
    home: await ids("select id from home_programmes where organisation_id = $1 order by id"),
    review: await ids("select id from review_items where organisation_id = $1 order by id limit 5"),
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
        // A home programme in the demo clinic (issue 31), on a headset no virtual headset runs, so its calls have ids to steal.
        if (o.username === "manager") {
          const [active] = await server().db.query<{ id: string }>(
            "select id from patients where organisation_id = $1 and trashed_at is null order by id limit 1",
            [o.id],
          );
          await ok(base, "home.programmeCreate", { body: programmeBody(active!.id, "VR-0003") }, token);
          await ok(base, "review.counts", {}, token); // its missed sessions become review items (found on read)
        }
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
  }, 300_000);
};

// Every id-like field at any depth of every contract call's query and body (issue 15 §5): the contract's own
// description (the OpenAPI document the server serves) lists them, and each is attacked with the other organisation's
// id while the rest of the call is a valid call of the attacker's own (a fresh record where the call consumes one).
// The answer must be the one the same call gets with an id that exists nowhere (404 wherever the call looks the id
// up), and the other organisation's data must not change; a refused call changes nothing at all.

type FieldKind = Kind | "deviceSn";
/** The attacker's own records a valid call is made of. */
interface Own {
  readonly base: string;
  readonly token: string;
  readonly org: string;
  readonly patient: string;
  /** A device whose headset is not running where the organisation has one, so a queued measurement stays where it was put. */
  readonly deviceSn: string;
  readonly device: string;
  readonly otherDevice: string;
}
interface FieldCase {
  /** Who can make the call valid: the organisation on the measurement variant, or on the appointment variant. */
  readonly by: "manager" | "appt.manager";
  /** The id-like paths attacked, with the kind of record each names ("x[]" appends to a list, "x[].y" sets the first). */
  readonly paths: Readonly<Record<string, FieldKind>>;
  /** A valid call of the attacker's own (fresh records where the call uses one up). */
  readonly input: (own: Own) => Promise<{ query?: Record<string, unknown>; body?: unknown }>;
}

/** Paths with an id-like name that name no record of an organisation: said why, and not attacked here. */
/** A file of no field: an import call that would write nothing whatever it named. */
const emptyCsv = { name: "empty.csv", encoding: "utf8", content: "" } as const;

const notRecordIds: Readonly<Record<string, string>> = {
  "perimetry.upload body.result.source.requestedProcedureId":
    "the order's Requested Procedure ID at the clinic's RIS, kept as an imported file names it: not a record of Isopter's",
  "user.signup body.invitationId":
    "an invitation is answered before any login (accounts seed); its id is a secret token, tested in accounts",
  "patient.register body.uniqueId":
    "a patient number the clinic types, unique per organisation (the same number in two clinics is allowed)",
  "patient.update body.uniqueId": "likewise",
  "sso.settingsUpdate body.clientId":
    "the client id the organisation's identity provider issued to Isopter (issue 33): a name at the provider, not a record here",
  "device.enrol body.deviceSn":
    "enrolling names a new serial: a serial enrolled by another organisation is refused as taken (device-trust suite), not looked up",
};

const measurementInput = (patientId: string, deviceSn: string) => ({ ...config, patientId, deviceSn, notes: "" });

const queued = async (own: Own) =>
  (await ok(own.base, "perimetry.register", { body: measurementInput(own.patient, own.deviceSn) }, own.token))[0]!;

const appointment = async (own: Own) =>
  ok(
    own.base,
    "appointment.registerWithExaminations",
    {
      body: {
        audioGuide: true,
        tutorial: false,
        trackGaze: true,
        deviceSn: own.deviceSn,
        patientId: own.patient,
        standaloneId: null,
        examinations: [amsler(own.patient, own.deviceSn)],
      },
    },
    own.token,
  );

const uploadResult = (measurementId: string, patientId: string, takenAt: string) =>
  demoResult({
    measurementId,
    patientId,
    takenAt,
    ageYears: 60,
    yearsIntoCourse: 1,
    course: "early-glaucoma",
    eye: Eye.Right,
    pattern: Pattern.P24_2,
    strategy: Strategy.DS,
    deviceAlias: "Room 1",
    seed: 3,
  });

let uploads = 0;
const fieldCases: Readonly<Record<string, FieldCase>> = {
  "results.import": {
    by: "manager",
    paths: { "body.patientId": "patient" },
    input: async (own) => ({ body: { files: [emptyCsv], dryRun: true, patientId: own.patient } }),
  },
  "pacs.fetch": {
    by: "manager",
    paths: { "body.patientId": "patient" },
    input: async (own) => ({ body: { patientId: own.patient, dryRun: true } }),
  },
  "dicom.settingsUpdate": {
    by: "manager",
    paths: { "body.worklist.deviceSn": "deviceSn" },
    input: async (own) => ({
      body: {
        worklist: {
          enabled: false,
          provider: { host: "127.0.0.1", port: 104, calledAeTitle: "RIS", callingAeTitle: "ISOPTER" },
          intervalMinutes: 5,
          deviceSn: own.deviceSn,
          modality: "OPV",
          localCodes: [],
        },
        pacs: null,
      },
    }),
  },
  "perimetry.register": {
    by: "manager",
    paths: { "body.patientId": "patient", "body.deviceSn": "deviceSn" },
    input: async (own) => ({ body: measurementInput(own.patient, own.deviceSn) }),
  },
  "perimetry.update": {
    by: "manager",
    paths: { "query.id": "measurement", "body.patientId": "patient", "body.deviceSn": "deviceSn" },
    input: async (own) => ({ query: { id: (await queued(own)).id }, body: measurementInput(own.patient, own.deviceSn) }),
  },
  "perimetry.upload": {
    by: "manager",
    paths: {
      "body.deviceSn": "deviceSn",
      "body.measurementId": "measurement",
      "body.result.measurementId": "measurement",
      "body.result.patientId": "patient",
    },
    input: async (own) => {
      const m = await queued(own);
      const takenAt = new Date(Date.UTC(2026, 0, 1) + ++uploads * 60_000).toISOString();
      return {
        body: { deviceSn: own.deviceSn, measurementId: m.id, standaloneId: null, result: uploadResult(m.id, own.patient, takenAt) },
      };
    },
  },
  // The stand-alone upload: a result of a stand-alone run made from the device's stand-alone setting.
  "perimetry.upload standalone": {
    by: "manager",
    paths: { "body.standaloneId": "standalone", "body.deviceSn": "deviceSn" },
    input: async (own) => {
      const data = await ok(
        own.base,
        "device.standalone",
        { query: { deviceSn: own.deviceSn }, body: { ...config, patientId: own.patient } },
        own.token,
      );
      const takenAt = new Date(Date.UTC(2026, 0, 1) + ++uploads * 60_000).toISOString();
      return {
        body: { deviceSn: own.deviceSn, measurementId: null, standaloneId: data!.id, result: uploadResult("", own.patient, takenAt) },
      };
    },
  },
  "device.standalone": {
    by: "manager",
    paths: { "query.deviceSn": "deviceSn", "body.patientId": "patient" },
    input: async (own) => ({ query: { deviceSn: own.deviceSn }, body: { ...config, patientId: own.patient } }),
  },
  "device.dragAndDropPerimetry": {
    by: "manager",
    paths: {
      "body.movedPerimetryId": "measurement",
      "body.from.deviceId": "device",
      "body.from.perimetriesIds[]": "measurement",
      "body.to.deviceId": "device",
      "body.to.perimetriesIds[]": "measurement",
    },
    input: async (own) => {
      const m = await queued(own);
      const lanes = await ok(own.base, "device.all", {}, own.token);
      const from = lanes.find((d) => d.id === own.device)!;
      const to = lanes.find((d) => d.id === own.otherDevice)!;
      return {
        body: {
          movedPerimetryId: m.id,
          from: {
            deviceId: from.id,
            perimetriesIds: from.perimetries.map((x) => x.id).filter((id) => id !== m.id),
            revision: from.revision,
          },
          to: { deviceId: to.id, perimetriesIds: [m.id, ...to.perimetries.map((x) => x.id)], revision: to.revision },
        },
      };
    },
  },
  "device.dragAndDropAppointment": {
    by: "appt.manager",
    paths: {
      "body.movedAppointmentId": "appointment",
      "body.from.deviceId": "device",
      "body.from.appointmentsIds[]": "appointment",
      "body.to.deviceId": "device",
      "body.to.appointmentsIds[]": "appointment",
    },
    input: async (own) => {
      const a = await appointment(own);
      const lanes = await ok(own.base, "device.all", {}, own.token);
      const from = lanes.find((d) => d.id === own.device)!;
      const to = lanes.find((d) => d.id === own.otherDevice)!;
      const ids = (d: (typeof lanes)[number]) => (d.appointments ?? []).map((x) => x.id);
      return {
        body: {
          movedAppointmentId: a.id,
          from: { deviceId: from.id, appointmentsIds: ids(from).filter((id) => id !== a.id), revision: from.revision },
          to: { deviceId: to.id, appointmentsIds: [a.id, ...ids(to)], revision: to.revision },
        },
      };
    },
  },
  "appointment.registerWithExaminations": {
    by: "appt.manager",
    paths: {
      "body.deviceSn": "deviceSn",
      "body.patientId": "patient",
      "body.standaloneId": "standalone",
      "body.examinations[].patientId": "patient",
      "body.examinations[].deviceSn": "deviceSn",
    },
    input: async (own) => ({
      body: {
        audioGuide: true,
        tutorial: false,
        trackGaze: true,
        deviceSn: own.deviceSn,
        patientId: own.patient,
        standaloneId: null,
        examinations: [amsler(own.patient, own.deviceSn)],
      },
    }),
  },
  "appointment.update": {
    by: "appt.manager",
    paths: { "query.id": "appointment", "body.deviceSn": "deviceSn", "body.patientId": "patient", "body.standaloneId": "standalone" },
    input: async (own) => ({
      query: { id: (await appointment(own)).id },
      body: { audioGuide: true, tutorial: false, trackGaze: true, deviceSn: own.deviceSn, patientId: own.patient, standaloneId: null },
    }),
  },
  "appointment.insertExaminations": {
    by: "appt.manager",
    paths: { "query.appointmentId": "appointment", "body.examinations[].patientId": "patient", "body.examinations[].deviceSn": "deviceSn" },
    input: async (own) => ({
      query: { appointmentId: (await appointment(own)).id },
      body: { examinations: [amsler(own.patient, own.deviceSn)] },
    }),
  },
  "appointment.reorderExaminations": {
    by: "appt.manager",
    paths: { "query.id": "appointment", "body.newExaminationsIds[]": "examination" },
    input: async (own) => {
      const a = await appointment(own);
      return { query: { id: a.id }, body: { newExaminationsIds: a.examinations.map((e) => e.id).reverse() } };
    },
  },
  "examination.update": {
    by: "appt.manager",
    paths: { "query.id": "examination", "body.id": "examination", "body.patientId": "patient", "body.deviceSn": "deviceSn" },
    input: async (own) => {
      const e = (await appointment(own)).examinations[0]!;
      return { query: { id: e.id }, body: { id: e.id, ...amsler(own.patient, own.deviceSn) } };
    },
  },
  "examination.register": {
    by: "appt.manager",
    paths: { "body.patientId": "patient", "body.deviceSn": "deviceSn", "body.appointmentId": "appointment" },
    input: async (own) => ({ body: { ...amsler(own.patient, own.deviceSn), appointmentId: (await appointment(own)).id } }),
  },
  "home.programmeCreate": {
    by: "manager",
    paths: { "body.patientId": "patient", "body.deviceSn": "deviceSn" },
    input: async (own) => ({ body: programmeBody(own.patient, own.deviceSn) }),
  },
  "review.book": {
    by: "manager",
    paths: { "body.deviceSn": "deviceSn" },
    input: async (own) => {
      const [item] = (await ok(own.base, "review.queue", { query: { state: "new" } }, own.token)).items;
      return { query: { id: item!.id }, body: { deviceSn: own.deviceSn } };
    },
  },
  "audit.search": {
    by: "manager",
    paths: { "body.filter.userId": "user", "body.filter.patientId": "patient" },
    input: async () => ({ body: { filter: { from: null, to: null, userId: null, patientId: null, action: null }, page: 0, quantity: 20 } }),
  },
};

/** The id-like fields of every call, from the OpenAPI document (query parameters, and body properties at any depth). */
const idFields = (): string[] => {
  const doc = openApiDocument(endpoints, "test") as {
    paths: Record<string, Record<string, { operationId?: string; parameters?: Array<{ name: string }>; requestBody?: unknown }>>;
    components?: { schemas?: Record<string, unknown> };
  };
  const schemas = doc.components?.schemas ?? {};
  const idLike = /^id$|Id$|Ids$|Sn$/;
  const out = new Set<string>();
  type Node = Record<string, unknown> | undefined;
  const walk = (name: string, node: Node, path: string, refs: ReadonlySet<string>): void => {
    if (!node || typeof node !== "object") return;
    const ref = node.$ref as string | undefined;
    if (ref) {
      const key = ref.split("/").pop()!;
      if (!refs.has(key)) walk(name, schemas[key] as Node, path, new Set([...refs, key]));
      return;
    }
    for (const k of ["anyOf", "oneOf", "allOf"]) for (const n of (node[k] as Node[] | undefined) ?? []) walk(name, n, path, refs);
    if (node.items) {
      const items = node.items as Node;
      const props = items?.properties as Record<string, Node> | undefined;
      if (props || items?.$ref || items?.anyOf) walk(name, items, `${path}[]`, refs);
    }
    for (const [k, v] of Object.entries((node.properties as Record<string, Node> | undefined) ?? {})) {
      const p = `${path}.${k}`;
      const isList = (v as { type?: string } | undefined)?.type === "array";
      if (idLike.test(k)) out.add(`${name} ${isList ? `${p}[]` : p}`);
      walk(name, v, p, refs);
    }
  };
  for (const item of Object.values(doc.paths))
    for (const op of Object.values(item)) {
      const name = op.operationId!;
      for (const p of op.parameters ?? []) if (idLike.test(p.name)) out.add(`${name} query.${p.name}`);
      const body = (op.requestBody as { content?: Record<string, { schema?: Node }> } | undefined)?.content?.["application/json"]?.schema;
      walk(name, body, "body", new Set());
    }
  return [...out].sort();
};

/** The input with the id at `path` replaced by `id` ("x[]" appends to the list, "x[].y" sets it on the first element). */
const withId = (input: { query?: Record<string, unknown>; body?: unknown }, path: string, id: string) => {
  const copy = structuredClone(input) as Record<string, unknown>;
  const parts = path.split(".");
  let node: Record<string, unknown> = copy;
  for (const [i, part] of parts.entries()) {
    const last = i === parts.length - 1;
    const list = part.endsWith("[]");
    const key = list ? part.slice(0, -2) : part;
    if (last && list) (node[key] as unknown[]).push(id);
    else if (last) node[key] = id;
    else node = (list ? (node[key] as unknown[])[0] : node[key]) as Record<string, unknown>;
  }
  return copy;
};

/** One organisation's rows, for seeing that a call of the other changed none of them. */
const organisationPrint = async (server: ServerRef, org: string) => {
  const parts = await Promise.all(
    ["patients", "measurements", "appointments", "examinations", "templates", "users", "standalone_configs"].map(async (t) =>
      JSON.stringify(
        await server().db.query(
          `select md5(coalesce(string_agg(t::text, ',' order by t.id), '')) as h from ${t} t where t.organisation_id = $1`,
          [org],
        ),
      ),
    ),
  );
  const devices = await server().db.query("select id, device_sn, alias from devices where organisation_id = $1 order by id", [org]);
  return `${parts.join("\n")}\n${JSON.stringify(devices)}`;
};

export const fieldIsolationCases = (server: ServerRef) => {
  it("every id-like field at any depth of every contract call is attacked (or said why it names no record)", () => {
    const attacked = new Set(
      Object.entries(fieldCases).flatMap(([key, c]) => Object.keys(c.paths).map((p) => `${key.split(" ")[0]} ${p}`)),
    );
    // The query-id calls of the first property.
    const byQuery = new Set(
      Object.keys(cases).flatMap((n) => ["id", "patientId", "appointmentId", "deviceSn"].map((k) => `${n} query.${k}`)),
    );
    const missing = idFields().filter((f) => !attacked.has(f) && !byQuery.has(f) && !(f in notRecordIds));
    expect(missing).toEqual([]);
  });

  it("property: every id-like field, at any depth, given the other organisation's id, answers as an id that exists nowhere and changes nothing of that organisation", async () => {
    const base = server().url;
    const running = new Set(["VR-0001", "VR-A001"]); // the suite's virtual headsets
    const orgs = await server().db.query<{ id: string; username: string }>(
      "select u.organisation_id as id, u.username from users u where u.username in ('manager', 'appt.manager') order by u.username",
    );
    const sides = new Map(
      await Promise.all(
        orgs.map(async (o) => {
          const token = await login(base, o.username);
          const devices = await server().db.query<{ id: string; device_sn: string }>(
            "select id, device_sn from devices where organisation_id = $1 order by device_sn = any($2::text[]), device_sn",
            [o.id, [...running]],
          );
          const patient = (
            await server().db.query<{ id: string }>(
              "select id from patients where organisation_id = $1 and trashed_at is null order by id limit 1",
              [o.id],
            )
          )[0]!.id;
          const own: Own = {
            base,
            token,
            org: o.id,
            patient,
            deviceSn: devices[0]!.device_sn,
            device: devices[0]!.id,
            otherDevice: devices[1]!.id,
          };
          // A queued measurement and an appointment in each organisation (whichever variant it is on), so every field
          // has an id of the other organisation to try.
          await queued(own).catch(() => undefined);
          await appointment(own).catch(() => undefined);
          const ids = await pools(server, o.id);
          return [o.username, { own, ids }] as const;
        }),
      ),
    );
    const keys = Object.keys(fieldCases);
    const attacks = keys.flatMap((key) => Object.keys(fieldCases[key]!.paths).map((path) => [key, path] as const));
    const figures = { attacks: 0, notFound: 0 };
    const attacked = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...attacks), fc.nat(), async ([key, path], pick) => {
        const c = fieldCases[key]!;
        const name = key.split(" ")[0] as Endpoint;
        const attacker = sides.get(c.by)!;
        const victim = [...sides.values()].find((s) => s !== attacker)!;
        const kind = c.paths[path]!;
        const pool = victim.ids[kind];
        fc.pre(pool.length > 0);
        const foreign = pool[pick % pool.length]!;
        const nowhere = kind === "deviceSn" ? `VR-NOWHERE-${pick}` : `nowhere-${pick}-${Math.random().toString(36).slice(2)}`;
        // Two fresh valid calls of the attacker's own, one with the foreign id, one with the id that exists nowhere.
        // Each built just before it is sent (building one queues a record, which would make the other's lanes stale).
        const forForeign = withId(await c.input(attacker.own), path, foreign);
        const before = await fingerprint(server);
        const victimBefore = await organisationPrint(server, victim.own.org);
        const answer = await call(base, name, forForeign as never, attacker.own.token);
        const what = `${c.by} ${key} with ${path} = the other organisation's ${kind} ${foreign}: ${answer.status} ${answer.error?.message}`;
        expect(await organisationPrint(server, victim.own.org), `${what}: changed the other organisation's data`).toBe(victimBefore);
        if (answer.status >= 300) expect(await fingerprint(server), `${what}: a refused call changed data`).toBe(before);
        const forNowhere = withId(await c.input(attacker.own), path, nowhere);
        const reference = await call(base, name, forNowhere as never, attacker.own.token);
        expect([answer.status, answer.responseType, answer.error?.field], what).toEqual([
          reference.status,
          reference.responseType,
          reference.error?.field,
        ]);
        // An answer that carries data must not carry the other organisation's: its ids are not in the answer. (The
        // attacker's own trail names the ids they tried, so there: no event of the other organisation's users.)
        if (answer.status < 300 && name === "audit.search")
          expect(
            (answer.data as unknown as { entries: Array<{ actorId: string | null }> }).entries.filter((e) =>
              victim.ids.user.includes(e.actorId ?? ""),
            ),
            what,
          ).toEqual([]);
        else if (answer.status < 300) expect(JSON.stringify(answer.data ?? null), what).not.toContain(foreign);
        figures.attacks++;
        attacked.add(`${key} ${path}`);
        if (answer.status === 404) figures.notFound++;
      }),
      { numRuns: attacks.length + 20, examples: attacks.map((a) => [a, 0] as [readonly [string, string], number]) },
    );
    // Every field was attacked at least once (each kind has ids in the other organisation).
    expect(attacks.map(([k, p]) => `${k} ${p}`).filter((a) => !attacked.has(a))).toEqual([]);
    console.log(
      `[attacker] id fields attacked with the other organisation's ids: ${attacks.length} fields in ${keys.length} calls, ${figures.attacks} attacks, ${figures.notFound} answered 404, every answer as for an id that exists nowhere`,
    );
  }, 300_000);
};
