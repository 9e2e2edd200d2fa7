import { TestType, type Eye, type Pattern } from "../model/enums.ts";
import type { Appointment } from "../model/appointment.ts";
import type { Device } from "../model/device.ts";
import type { Measurement } from "../model/measurement.ts";

// Which test a lane's controls act on, so the confirmations can name it (patient, eye, pattern, lane): "The running
// test id is the live one, else the first queued perimetry/appointment" (scheduling seed §4); in an appointment, the
// first examination not yet taken ("In run order: the first untaken examination runs next").

export interface LaneTest {
  readonly patientId: string;
  readonly testType: TestType;
  readonly eye: Eye;
  /** Perimetry only. */
  readonly pattern: Pattern | null;
  /** The measurement's display name (measurement variant). */
  readonly displayName: string | null;
  /** The queued item: a measurement or an appointment. */
  readonly itemId: string;
}

/** A queued measurement as the test it is. */
export const measurementTest = (m: Measurement): LaneTest => ({
  patientId: m.patientId,
  testType: TestType.Perimetry,
  eye: m.eye,
  pattern: m.pattern,
  displayName: m.displayName,
  itemId: m.id,
});

/** An appointment as the test that runs next in it: its first examination not yet taken (null without examinations). */
export function appointmentTest(a: Appointment): LaneTest | null {
  const exam = a.examinations.find((e) => !e.taken) ?? a.examinations[0];
  if (!exam) return null;
  return {
    patientId: a.patientId,
    testType: exam.type,
    eye: exam.eye,
    pattern: exam.type === TestType.Perimetry && exam.config ? exam.config.pattern : null,
    displayName: null,
    itemId: a.id,
  };
}

export function laneTest(device: Device, byAppointment: boolean, runningId: string | null): LaneTest | null {
  if (byAppointment) {
    const queue = device.appointments ?? [];
    const appointment = queue.find((a) => a.id === runningId) ?? queue[0];
    return appointment ? appointmentTest(appointment) : null;
  }
  const m = device.perimetries.find((x) => x.id === runningId) ?? device.perimetries[0];
  return m ? measurementTest(m) : null;
}
