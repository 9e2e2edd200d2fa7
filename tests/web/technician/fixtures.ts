// Builders for the technician view's component tests: devices with queued measurements.
import { ConnectionStatus, DeviceStatus, Eye, Pattern, Strategy } from "../../../core/model/enums.ts";
import type { Device } from "../../../core/model/device.ts";
import { newMeasurement, type Measurement } from "../../../core/model/measurement.ts";
import { measurementConfigWith } from "../../../core/rules/defaults.ts";
import type { Patient } from "../../../core/model/patient.ts";

export const measurement = (id: string, over: Partial<Measurement> = {}): Measurement => ({
  ...newMeasurement(
    measurementConfigWith({
      patientId: "p1",
      deviceSn: "SN1",
      displayName: `Test ${id}`,
      eye: Eye.Right,
      pattern: Pattern.P24_2,
      strategy: Strategy.DS,
    }),
    id,
    "2026-01-01T10:00:00.000Z",
  ),
  ...over,
});

export const device = (n: number, perimetries: Measurement[] = [], over: Partial<Device> = {}): Device => ({
  id: `d${n}`,
  deviceSn: `SN${n}`,
  alias: `Room ${n}`,
  status: DeviceStatus.Standby,
  lastSeen: null,
  standaloneId: null,
  revision: 1,
  battery: { vr: { level: 80, charging: false }, clicker: { level: 15, charging: false } },
  connection: ConnectionStatus.Connected,
  perimetries: perimetries.map((m) => ({ ...m, deviceSn: `SN${n}` })),
  ...over,
});

export const patient = (id: string, name: string, over: Partial<Patient> = {}): Patient => ({
  id,
  name,
  uniqueId: `U-${id}`,
  gender: 0,
  lang: "en",
  birthdate: "1960-05-01",
  createdAt: "2026-01-01T10:00:00.000Z",
  updatedAt: "2026-01-01T10:00:00.000Z",
  trashedAt: null,
  ...over,
});
