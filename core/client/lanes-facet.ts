import type { AppointmentRegisterBody } from "../model/contract/appointments.ts";
import type { Appointment } from "../model/appointment.ts";
import type { Examination, ExaminationPayload } from "../model/examination.ts";
import type { Measurement, MeasurementBody } from "../model/measurement.ts";
import type { MeasurementConfig } from "../model/measurement-config.ts";
import type { FormMode } from "../rules/form-context.ts";
import { defaultMeasurementConfig } from "../rules/defaults.ts";
import type { Drop, DropPlan } from "../scheduling/drop-plan.ts";
import { CacheKey } from "./cache-keys.ts";
import type { DevicesFacet } from "./devices-facet.ts";
import { appointmentLane, measurementLane, type SchedulingVariant } from "./device-view.ts";
import type { FacetContext } from "./facet-context.ts";
import { moveAppointment, moveMeasurement, reorderAppointmentExaminations, type LaneCommandContext } from "./lane-commands.ts";
import type { OwnLane } from "./live-reducer.ts";
import { writePatientTestConfiguration } from "./local-settings.ts";

// The lanes facet (scheduling seed §2, §4, §5): what is queued on which headset and every command that changes it —
// drags, examination reorder, and the sequences of calls behind the measurement form, the examination wizard and
// template scheduling. Each command reads the lanes again afterwards: the live insert event adds the cards, and the
// refetch also covers a live socket that is down.

/** Scheduling seed §8 "Appointments missing". */
export const APPOINTMENTS_MISSING = "Appointments field missing in one or more devices.";

/** What the measurement form saves: the mode it was opened in, the lane, the configuration with its patient. */
export interface MeasurementSave {
  readonly mode: FormMode;
  readonly deviceSn: string;
  readonly config: MeasurementConfig & { readonly patientId: string };
  /** The measurement an edit changes. */
  readonly sourceId?: string;
}

/** What the examination wizard saves. */
export interface ExaminationsSave {
  readonly deviceSn: string;
  readonly patientId: string;
  readonly examinations: readonly ExaminationPayload[];
  /** Editing one examination: it is saved with the first payload, keeping its notes. */
  readonly editing?: Examination;
  /** Adding tests to this appointment (from its panel). */
  readonly appointmentId?: string;
  /** A new appointment's settings (audio guide, tutorial, gaze tracking) follow its first perimetry test, else the
   * defaults of a new measurement. */
  readonly perimetry?: Pick<MeasurementConfig, "audioGuide" | "tutorial" | "trackGaze">;
}

export interface LanesFacet {
  readonly variant: SchedulingVariant;
  /** Device ids whose lane flashes an error (500 ms after a failed drag). */
  readonly flashing: ReadonlySet<string>;
  /** Appointment ids that wiggle (500 ms after a failed reorder). */
  readonly wiggling: ReadonlySet<string>;
  /** Appointment variant: a device came without its appointments field ('Appointments field missing in one or more devices.'). */
  appointmentsMissing(): boolean;
  moveMeasurement(drop: Drop): Promise<DropPlan<Measurement>>;
  moveAppointment(drop: Drop): Promise<DropPlan<Appointment>>;
  reorderExaminations(appointmentId: string, from: number, to: number): Promise<boolean>;
  /** The measurement form's save: stand-alone mode on, the measurement changed, or a new one queued. False when the
   * server refused or the headset is busy ("Stand-alone mode cannot change while another measurement runs"). A saved
   * configuration is kept for its patient ("patientTestConfigurations", `marks.lastConfiguration`). */
  saveMeasurement(save: MeasurementSave): Promise<boolean>;
  /** The examination wizard's save: one examination changed, tests added to an appointment, or a new appointment
   * registered with its examinations. False when the server refused. */
  saveExaminations(save: ExaminationsSave): Promise<boolean>;
  /** Queues measurements one call each, in order (the queue keeps it). Stops at the first refusal; resolves how many
   * were queued and whether all were. */
  registerMeasurements(bodies: readonly MeasurementBody[]): Promise<{ readonly registered: number; readonly complete: boolean }>;
  /** Registers an appointment with its examinations. False when the server refused. */
  registerAppointment(body: AppointmentRegisterBody): Promise<boolean>;
}

export function createLanesFacet(ctx: FacetContext, devices: DevicesFacet, ownLaneRevisions: Map<string, OwnLane>): LanesFacet {
  const flashing = new Set<string>();
  const wiggling = new Set<string>();
  const laneContext: LaneCommandContext = {
    api: ctx.api,
    clock: ctx.clock,
    cache: ctx.cache,
    measurementLanes: () => ctx.views().map(measurementLane),
    appointmentLanes: () => ctx.views().map(appointmentLane),
    notify: ctx.notify,
    flashing,
    wiggling,
    ownLaneRevisions,
    changed: () => ctx.changed("lanes"),
  };
  const readLanes = () => void ctx.cache.refetch(CacheKey.Devices);
  /** Runs a save; the lanes are read again after success. */
  const saved = async (run: () => Promise<unknown>): Promise<boolean> => {
    try {
      await run();
    } catch {
      return false;
    }
    readLanes();
    return true;
  };

  return {
    get variant() {
      return ctx.variant();
    },
    flashing,
    wiggling,
    appointmentsMissing: () => ctx.variant() === "appointments" && ctx.cachedDevices().some((d) => d.appointments === undefined),
    moveMeasurement: (drop) => moveMeasurement(laneContext, drop),
    moveAppointment: (drop) => moveAppointment(laneContext, drop),
    reorderExaminations: (id, from, to) => reorderAppointmentExaminations(laneContext, id, from, to),

    saveMeasurement: ({ mode, deviceSn, config, sourceId }) =>
      saved(async () => {
        const body: MeasurementBody = { ...config, deviceSn };
        if (mode === "standalone") {
          const { notes: _notes, deviceSn: _sn, ...standalone } = body;
          if (!(await devices.setStandalone(deviceSn, standalone))) throw new Error("the headset is busy");
        } else if (mode === "edit" && sourceId !== undefined) {
          await ctx.api.call("perimetry.update", { query: { id: sourceId }, body });
        } else {
          // A clone is stored as one ('cloned flag', scheduling seed §3); a new measurement as the seed's call.
          await ctx.api.call("perimetry.register", { body: mode === "clone" ? { ...body, cloned: true } : body });
        }
        writePatientTestConfiguration(ctx.storage.local, body.patientId, body);
      }),

    saveExaminations: ({ deviceSn, patientId, examinations, editing, appointmentId, perimetry }) =>
      saved(async () => {
        if (editing) {
          const first = examinations[0];
          if (!first) throw new Error("nothing to save");
          await ctx.api.call("examination.update", { query: { id: editing.id }, body: { id: editing.id, ...first, notes: editing.notes } });
        } else if (appointmentId !== undefined) {
          await ctx.api.call("appointment.insertExaminations", { query: { appointmentId }, body: { examinations } });
        } else {
          const settings = perimetry ?? defaultMeasurementConfig("newer");
          await ctx.api.call("appointment.registerWithExaminations", {
            body: {
              audioGuide: settings.audioGuide,
              tutorial: settings.tutorial,
              trackGaze: settings.trackGaze,
              deviceSn,
              patientId,
              examinations,
              standaloneId: null,
            },
          });
        }
      }),

    async registerMeasurements(bodies) {
      let registered = 0;
      try {
        for (const body of bodies) {
          await ctx.api.call("perimetry.register", { body });
          registered += 1;
        }
      } catch {
        // stop at the first refusal: the caller says how many were queued
      }
      if (registered > 0) readLanes();
      return { registered, complete: registered === bodies.length };
    },

    async registerAppointment(body) {
      if (!(await saved(() => ctx.api.call("appointment.registerWithExaminations", { body })))) return false;
      void ctx.cache.refetch(CacheKey.Appointments);
      return true;
    },
  };
}
