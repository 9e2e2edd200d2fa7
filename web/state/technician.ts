import { atom } from "jotai";
import type { FormMode } from "../../core/rules/form-context.ts";
import type { Measurement } from "../../core/model/measurement.ts";
import type { Examination } from "../../core/model/examination.ts";
import type { LaneTest } from "../../core/scheduling/next-test.ts";
import type { Drop } from "../../core/scheduling/drop-plan.ts";

// Technician-view state that core/client does not hold: the measurement form the technician has open.

/** The measurement form's mode, the device it is for and the measurement it starts from (edit and clone). */
export interface MeasurementFormRequest {
  readonly mode: FormMode;
  readonly deviceSn: string;
  readonly source?: Measurement;
}

export const measurementFormAtom = atom<MeasurementFormRequest | null>(null);

/** The examination wizard the technician has open (appointment variant): the device, and the appointment tests are added to. */
export const wizardAtom = atom<{
  readonly deviceSn: string;
  readonly appointmentId?: string;
  readonly patientId?: string;
  /** Editing one examination: the wizard starts at its configuration and saves it with 'Save test'. */
  readonly examination?: Examination;
} | null>(null);

/** A queued measurement or appointment the technician asked to move to the bin ("Delete and move actions need
 * confirmation"): what the confirmation names before anything is sent. */
export interface TrashRequest {
  readonly item: "measurement" | "appointment";
  readonly test: LaneTest;
  /** The lane it is queued in. */
  readonly deviceSn: string | null;
}

export const trashRequestAtom = atom<TrashRequest | null>(null);

/** A planned move waiting for its confirmation ("Delete and move actions need confirmation", both seeds §5). */
export interface MoveRequest {
  readonly item: "measurement" | "appointment";
  readonly drop: Drop;
  readonly test: LaneTest;
  readonly fromSn: string;
  readonly toSn: string;
  /** 1-based place in the destination lane after the move. */
  readonly position: number;
}

export const moveRequestAtom = atom<MoveRequest | null>(null);
/** A drop the planner refused (between linked cards): the 'Drop not allowed' dialog is open. */
export const dropRefusedAtom = atom(false);
