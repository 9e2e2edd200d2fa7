import { Eye, Pattern, Role, StimulusSize, Strategy, TestType, type Language, type Sex } from "../../../core/model/enums.ts";
import type { Examination, ExaminationConfig } from "../../../core/model/examination.ts";
import type { Queryable } from "../db/database.ts";
import { insertAppointment } from "../store/appointments.ts";
import { insertDevice } from "../store/devices.ts";
import { insertExamination } from "../store/examinations.ts";
import { newId } from "../store/ids.ts";
import { demoResult } from "./results.ts";
import { defaultMeasurementConfig, examinationConfigOf } from "../../../core/rules/defaults.ts";
import { insertPatient } from "../store/patients.ts";
import { insertTemplate } from "../store/templates.ts";
import { insertDemoOrganisation } from "./organisation.ts";

// The second demo organisation: a clinic on the appointment variant (organisation multiTests true), so the technician
// view's appointments with examinations can be seen without switching the first clinic through PATCH
// /api/dev/organisation. A few patients, and on each of its own headsets (VR-A001, VR-A002, which `npm start` runs
// beside the first clinic's VR-0001 ...) appointments whose examinations cover every test type the simulator runs:
// perimetry, Amsler grid, visual acuity and colour vision. One appointment is already done: both eyes' 24-2 perimetry
// examinations taken a month before, with results (demoResult), so home's recent tests open the appointment variant's
// result page (/patient/{id}/perimetry/{examinationId}). It queues nowhere (a lane lists appointments with a test left).

export const APPOINTMENT_CLINIC = { name: "Isopter Demo Appointments Clinic", market: "MDR", country: "DE", multiTests: true } as const;

export const appointmentClinicUsers: ReadonlyArray<{ username: string; email: string; role: Role }> = [
  { username: "appt.manager", email: "manager@appointments.demo.isopter.test", role: Role.Manager },
  { username: "appt.user", email: "user@appointments.demo.isopter.test", role: Role.User },
  { username: "appt.admin", email: "admin@appointments.demo.isopter.test", role: Role.Admin },
];

/** Its headsets: serials of their own, outside the VR-nnnn range the first clinic and `simulate headsets add` use. */
export const appointmentClinicSerials: readonly string[] = ["VR-A001", "VR-A002"];
const aliases = ["Exam room A", "Exam room B"];

const patients: ReadonlyArray<[string, Sex, Language, string]> = [
  ["Hannah Keller", 0, "de", "1957-04-11"],
  ["Matteo Greco", 1, "it", "1949-09-23"],
  ["Ines Moreau", 0, "fr", "1963-02-05"],
  ["George Hall", 1, "en", "1952-12-30"],
  ["Lotte Smit", 0, "nl", "1970-06-17"],
];

/** The form's defaults for the appointment variant (core/rules), with the demo's pattern and strategy. */
const perimetryConfig = (pattern: Pattern, strategy: Strategy): ExaminationConfig =>
  examinationConfigOf({
    ...defaultMeasurementConfig("newer"),
    pattern,
    strategy,
    stimuliSize: strategy === Strategy.SORS ? StimulusSize.III_ADAPTIVE : StimulusSize.III,
  });

type Planned = { readonly type: TestType; readonly eye: Eye; readonly config: ExaminationConfig | null };

/** The queue: per headset, appointments (patient index, examinations in running order). */
const queues: ReadonlyArray<ReadonlyArray<{ patient: number; examinations: readonly Planned[] }>> = [
  [
    {
      patient: 0,
      examinations: [
        { type: TestType.Amsler, eye: Eye.Right, config: null },
        { type: TestType.Perimetry, eye: Eye.Right, config: perimetryConfig(Pattern.P24_2, Strategy.DS) },
        { type: TestType.Acuity, eye: Eye.Right, config: null },
      ],
    },
    {
      patient: 1,
      examinations: [
        { type: TestType.ColorBlindness, eye: Eye.Binocular, config: null },
        { type: TestType.Amsler, eye: Eye.Left, config: null },
      ],
    },
    { patient: 2, examinations: [{ type: TestType.Perimetry, eye: Eye.Left, config: perimetryConfig(Pattern.G, Strategy.SORS) }] },
  ],
  [
    {
      patient: 3,
      examinations: [
        { type: TestType.Acuity, eye: Eye.Left, config: null },
        { type: TestType.ColorBlindness, eye: Eye.Binocular, config: null },
        { type: TestType.Perimetry, eye: Eye.Left, config: perimetryConfig(Pattern.P24_2, Strategy.Supra) },
      ],
    },
    {
      patient: 4,
      examinations: [
        { type: TestType.Amsler, eye: Eye.Right, config: null },
        { type: TestType.Amsler, eye: Eye.Left, config: null },
      ],
    },
  ],
];

/** The done appointment: patient index, headset index, days before the clinic was created, eyes in running order. */
export const takenAppointment = { patient: 0, lane: 0, daysBefore: 30, eyes: [Eye.Right, Eye.Left] } as const;

/** True when the appointment clinic is there (its manager exists): a data directory from before it was added lacks it. */
export const hasAppointmentClinic = async (q: Queryable): Promise<boolean> =>
  (await q.query("select 1 from users where username = $1", [appointmentClinicUsers[0]!.username])).length > 0;

/**
 * Creates the appointment clinic inside a transaction. `createdAt` must be later than the first clinic's: "the demo
 * organisation" is the oldest one (ensureDevices, `simulate headsets add`).
 */
export const seedAppointmentClinic = async (tx: Queryable, options: { password: string; createdAt: string }): Promise<void> => {
  const iso = options.createdAt;
  const org = await insertDemoOrganisation(tx, APPOINTMENT_CLINIC, appointmentClinicUsers, options.password, iso);
  for (const [n, sn] of appointmentClinicSerials.entries()) {
    // A serial registered elsewhere (a headset added to another organisation by hand) stays where it is.
    if ((await tx.query("select 1 from devices where device_sn = $1", [sn])).length === 0)
      await insertDevice(tx, org, newId(), sn, aliases[n] ?? `Exam room ${n + 1}`, iso);
  }
  const patientIds: string[] = [];
  for (const [index, [name, gender, lang, birthdate]] of patients.entries()) {
    const id = newId();
    patientIds.push(id);
    await insertPatient(tx, org, id, { name, uniqueId: `A-${String(2001 + index)}`, gender, lang, birthdate }, iso);
  }
  for (const [lane, queue] of queues.entries()) {
    const deviceSn = appointmentClinicSerials[lane]!;
    for (const [position, planned] of queue.entries()) {
      const appointmentId = newId();
      const patientId = patientIds[planned.patient]!;
      await insertAppointment(
        tx,
        org,
        {
          id: appointmentId,
          patientId,
          deviceSn,
          audioGuide: true,
          tutorial: false,
          trackGaze: true,
          standaloneId: null,
          createdAt: iso,
          updatedAt: iso,
          trashedAt: null,
        },
        position + 1,
      );
      for (const [k, p] of planned.examinations.entries()) {
        const e: Examination = {
          id: newId(),
          patientId,
          type: p.type,
          eye: p.eye,
          notes: "",
          taken: false,
          appointmentId,
          deviceSn,
          result: null,
          config: p.config,
          createdAt: iso,
          updatedAt: iso,
          trashedAt: null,
        };
        await insertExamination(tx, org, e, k);
      }
    }
  }
  await seedTakenAppointment(tx, org, patientIds, Date.parse(iso));
  await insertTemplate(
    tx,
    org,
    newId(),
    {
      name: "Annual check",
      tests: [
        { type: TestType.Perimetry, eye: Eye.Both, config: perimetryConfig(Pattern.P24_2, Strategy.DS) },
        { type: TestType.Amsler, eye: Eye.Both, config: null },
        { type: TestType.Acuity, eye: Eye.Both, config: null },
        { type: TestType.ColorBlindness, eye: Eye.Binocular, config: null },
      ],
    },
    iso,
  );
};

/** The done appointment (takenAppointment): both eyes' 24-2 examinations taken, the second a few minutes after the first. */
const seedTakenAppointment = async (tx: Queryable, org: string, patientIds: readonly string[], createdMs: number) => {
  const { patient: index, lane, daysBefore, eyes } = takenAppointment;
  const patientId = patientIds[index]!;
  const birthdate = patients[index]![3];
  const deviceSn = appointmentClinicSerials[lane]!;
  const start = new Date(createdMs - daysBefore * 86400_000);
  start.setUTCHours(9, 30, 0, 0);
  const created = new Date(start.getTime() - 3600_000).toISOString();
  const appointmentId = newId();
  await insertAppointment(
    tx,
    org,
    {
      id: appointmentId,
      patientId,
      deviceSn,
      audioGuide: true,
      tutorial: false,
      trackGaze: true,
      standaloneId: null,
      createdAt: created,
      updatedAt: created,
      trashedAt: null,
    },
    0,
  );
  for (const [k, eye] of eyes.entries()) {
    const id = newId();
    const takenAt = new Date(start.getTime() + k * 9 * 60_000).toISOString();
    const result = demoResult({
      measurementId: id,
      patientId,
      takenAt,
      ageYears: (Date.parse(takenAt) - Date.parse(birthdate)) / (365.25 * 86400_000),
      birthdate,
      yearsIntoCourse: 2,
      course: "early-glaucoma",
      eye,
      pattern: Pattern.P24_2,
      strategy: Strategy.DS,
      deviceAlias: aliases[lane] ?? deviceSn,
      seed: 2001 + k,
    });
    const e: Examination = {
      id,
      patientId,
      type: TestType.Perimetry,
      eye,
      notes: "",
      taken: true,
      appointmentId,
      deviceSn,
      result,
      config: perimetryConfig(Pattern.P24_2, Strategy.DS),
      createdAt: created,
      updatedAt: takenAt,
      trashedAt: null,
    };
    await insertExamination(tx, org, e, k);
  }
};
