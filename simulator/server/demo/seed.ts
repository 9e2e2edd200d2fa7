import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Eye, Pattern, StimulusSize, Strategy, type Language, type Role, type Sex } from "../../../core/model/enums.ts";
import { newMeasurement, type Measurement } from "../../../core/model/measurement.ts";
import { examinationConfigOf, measurementConfigWith } from "../../../core/rules/defaults.ts";
import { isStrongPassword } from "../../../core/rules/password.ts";
import { hashPassword } from "../auth/password.ts";
import type { Database, Queryable } from "../db/database.ts";
import { insertDevice } from "../store/devices.ts";
import { newId } from "../store/ids.ts";
import { insertMeasurement } from "../store/measurements.ts";
import { insertPatient } from "../store/patients.ts";
import { insertTemplate } from "../store/templates.ts";
import { insertDemoOrganisation } from "./organisation.ts";
import { demoResult, seeded, type Course, type DemoResultInput } from "./results.ts";
import { engineResult } from "./engine-results.ts";
import { addShowcase, SHOWCASE_PATIENT_INDEX } from "./showcase.ts";
import {
  APPOINTMENT_CLINIC,
  appointmentClinicSerials,
  appointmentClinicUsers,
  hasAppointmentClinic,
  seedAppointmentClinic,
} from "./appointment-clinic.ts";

// The demo clinic (fixtures/demo/clinic.json), created once on the first start of an empty database: one organisation,
// the users manager, user and admin, a few dozen patients, several years of results for most of them, queued
// measurements on the headsets and two templates. Beside it, a second organisation on the appointment variant
// (appointment-clinic.ts: appt.manager, appt.user, appt.admin), added on a later start too when a data directory
// predates it.

interface Clinic {
  organisation: { name: string; market: string; country: string; multiTests: boolean };
  users: Array<{ username: string; email: string; role: Role }>;
  deviceAliases: string[];
  patients: Array<[string, Sex, Language, string]>;
}

const clinic = (): Clinic =>
  JSON.parse(readFileSync(fileURLToPath(new URL("../../../fixtures/demo/clinic.json", import.meta.url)), "utf8")) as Clinic;

/** A password the policy accepts (upper, lower, digit, special, 8+), for when DEMO_PASSWORD is unset. */
export const generatedPassword = (): string => {
  for (;;) {
    const p = `Demo-${randomBytes(9).toString("base64url")}7a`;
    if (isStrongPassword(p)) return p;
  }
};

export const deviceSerial = (n: number) => `VR-${String(n).padStart(4, "0")}`;

/** Makes sure the demo organisation has at least `count` headsets (VR-0001 ...). */
export const ensureDevices = async (db: Database, count: number): Promise<string[]> => {
  const org = (await db.query<{ id: string }>("select id from organisations order by created_at limit 1"))[0]?.id;
  if (!org) return [];
  const aliases = clinic().deviceAliases;
  const serials: string[] = [];
  await db.transaction(async (tx) => {
    for (let n = 1; n <= count; n++) {
      const sn = deviceSerial(n);
      serials.push(sn);
      const exists = await tx.query("select 1 from devices where device_sn = $1", [sn]);
      if (!exists.length) await insertDevice(tx, org, newId(), sn, aliases[n - 1] ?? `Headset ${n}`, new Date().toISOString());
    }
  });
  return serials;
};

const courses: Course[] = ["healthy", "early-glaucoma", "early-glaucoma", "advanced-glaucoma", "healthy", "early-glaucoma"];

/** Results from the perimetry engine (the default) or the quicker closed-form fixtures (tests). */
export type DemoResults = "engine" | "fixtures";

const resultFor = (how: DemoResults, input: DemoResultInput) => {
  if (how === "fixtures") return demoResult(input);
  try {
    return engineResult(input);
  } catch (e) {
    // The engine is another helper's moving target; a demo must still start.
    console.error(`[isopter demo] perimetry engine failed (${(e as Error).message}); using a closed-form fixture`);
    return demoResult(input);
  }
};

const addHistory = async (
  tx: Queryable,
  org: string,
  patientId: string,
  birthdate: string,
  index: number,
  now: Date,
  alias: string,
  how: DemoResults,
) => {
  const rng = seeded(1000 + index);
  const course = courses[index % courses.length]!;
  const visits = 2 + Math.floor(rng.next() * 5);
  const pattern = index % 4 === 3 ? Pattern.G : Pattern.P24_2;
  const strategy = index % 3 === 0 ? Strategy.Normal : Strategy.DS;
  const startYearsAgo = visits * (0.5 + rng.next() * 0.6);
  for (let v = 0; v < visits; v++) {
    const yearsAgo = startYearsAgo - v * (startYearsAgo / visits);
    const takenAt = new Date(now.getTime() - yearsAgo * 365.25 * 86400_000);
    takenAt.setUTCHours(9 + Math.floor(rng.next() * 8), Math.floor(rng.next() * 60), 0, 0);
    const age = (takenAt.getTime() - Date.parse(birthdate)) / (365.25 * 86400_000);
    let rightId: string | null = null;
    for (const eye of [Eye.Right, Eye.Left]) {
      const id = newId();
      const created = new Date(takenAt.getTime() - 3600_000).toISOString();
      const config = measurementConfigWith({
        patientId,
        deviceSn: null,
        displayName: `Test ${v + 1}`,
        eye,
        pattern,
        strategy,
        notes: v === 0 ? "First visit." : "",
      });
      const m: Measurement = {
        ...newMeasurement(config, id, created, eye === Eye.Left ? rightId : null),
        result: resultFor(how, {
          measurementId: id,
          patientId,
          takenAt: takenAt.toISOString(),
          ageYears: age,
          birthdate,
          yearsIntoCourse: startYearsAgo - yearsAgo + (eye === Eye.Left ? 0.5 : 0),
          course,
          eye,
          pattern,
          strategy,
          deviceAlias: alias,
          seed: index * 100 + v * 2 + eye,
        }),
        updatedAt: takenAt.toISOString(),
      };
      await insertMeasurement(tx, org, m, null);
      if (eye === Eye.Right) rightId = id;
    }
  }
};

export interface DemoLogins {
  /** The first clinic (measurement variant) was created now, with the password given. */
  readonly created: boolean;
  readonly usernames: readonly string[];
  /** The second clinic, on the appointment variant (organisation multiTests true), with its own headsets. */
  readonly appointments: {
    readonly name: string;
    readonly created: boolean;
    readonly usernames: readonly string[];
    readonly serials: readonly string[];
  };
}

/**
 * Seeds the demo clinic into an empty database (does nothing to it, created false, when an organisation exists), and
 * the appointment clinic whenever it is missing (a later start on a data directory from before it gets it too).
 */
export const seedDemo = async (
  db: Database,
  options: { password: string; headsets: number; now?: Date; results?: DemoResults },
): Promise<DemoLogins> => {
  const data = clinic();
  const usernames = data.users.map((u) => u.username);
  const now = options.now ?? new Date();
  const created = (await db.query("select 1 from organisations limit 1")).length === 0;
  if (created) await seedClinic(db, data, options, now, options.password);
  const appointmentsCreated = !(await hasAppointmentClinic(db));
  if (appointmentsCreated) {
    // Later than the first clinic's: that one stays "the demo organisation" (the oldest).
    const first = (await db.query<{ created_at: string }>("select max(created_at) as created_at from organisations"))[0]?.created_at;
    const after = new Date(Math.max(now.getTime(), Date.parse(first ?? now.toISOString()) + 1000)).toISOString();
    await db.transaction((tx) => seedAppointmentClinic(tx, { password: options.password, createdAt: after }));
  }
  return {
    created,
    usernames,
    appointments: {
      name: APPOINTMENT_CLINIC.name,
      created: appointmentsCreated,
      usernames: appointmentClinicUsers.map((u) => u.username),
      serials: appointmentClinicSerials,
    },
  };
};

const seedClinic = async (
  db: Database,
  data: Clinic,
  options: { headsets: number; results?: DemoResults },
  now: Date,
  password: string,
): Promise<void> => {
  const iso = now.toISOString();
  await db.transaction(async (tx) => {
    const org = await insertDemoOrganisation(tx, data.organisation, data.users, password, iso);
    const serials: string[] = [];
    for (let n = 1; n <= Math.max(1, options.headsets); n++) {
      serials.push(deviceSerial(n));
      await insertDevice(tx, org, newId(), deviceSerial(n), data.deviceAliases[n - 1] ?? `Headset ${n}`, iso);
    }
    for (const [index, [name, gender, lang, birthdate]] of data.patients.entries()) {
      const id = newId();
      await insertPatient(tx, org, id, { name, uniqueId: `P-${String(1001 + index)}`, gender, lang, birthdate }, iso);
      if (index < 28)
        await addHistory(tx, org, id, birthdate, index, now, data.deviceAliases[index % 4] ?? "Room 1", options.results ?? "engine");
      if (index === SHOWCASE_PATIENT_INDEX)
        await addShowcase(tx, org, id, birthdate, now, data.deviceAliases[1] ?? "Room 2", (input) =>
          resultFor(options.results ?? "engine", input),
        );
      // A few measurements waiting in the lanes.
      if (index >= 28 && index < 28 + serials.length * 2) {
        const sn = serials[(index - 28) % serials.length]!;
        const config = measurementConfigWith({
          patientId: id,
          deviceSn: sn,
          displayName: `Test ${name}`,
          eye: index % 2 ? Eye.Left : Eye.Right,
          pattern: Pattern.P24_2,
          strategy: Strategy.DS,
        });
        const m = newMeasurement(config, newId(), iso);
        await insertMeasurement(tx, org, m, index);
      }
    }
    const perimetry = (pattern: Pattern, strategy: Strategy) => ({
      type: "perimetry" as const,
      eye: Eye.Both,
      config: examinationConfigOf(
        measurementConfigWith({
          pattern,
          strategy,
          stimuliSize: strategy === Strategy.SORS ? StimulusSize.III_ADAPTIVE : StimulusSize.III,
        }),
      ),
    });
    await insertTemplate(
      tx,
      org,
      newId(),
      { name: "Glaucoma follow-up", tests: [perimetry(Pattern.P24_2, Strategy.DS), { type: "amsler", eye: Eye.Both, config: null }] },
      iso,
    );
    await insertTemplate(tx, org, newId(), { name: "Screening", tests: [perimetry(Pattern.G, Strategy.SORS)] }, iso);
  });
};

/** DEMO_PASSWORD given on a later start: the demo accounts take it (they are the demo's, not real staff), each hash
 * with its own salt (this also re-hashes accounts seeded when the demo accounts shared one salt). */
export const setDemoPasswords = async (db: Database, password: string): Promise<void> => {
  const usernames = [...clinic().users, ...appointmentClinicUsers].map((u) => u.username);
  const hashes = await Promise.all(usernames.map(() => hashPassword(password)));
  await db.transaction(async (tx) => {
    for (const [i, username] of usernames.entries())
      await tx.query("update users set password_hash = $1 where username = $2", [hashes[i], username]);
  });
};
