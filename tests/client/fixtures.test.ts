import { describe, expect, it } from "vitest";
import { Result } from "effect";
import { decode } from "../../core/model/decode.ts";
import { AppointmentSchema } from "../../core/model/appointment.ts";
import { DeviceSchema } from "../../core/model/device.ts";
import { ExaminationSchema } from "../../core/model/examination.ts";
import { MeasurementSchema } from "../../core/model/measurement.ts";
import { PatientSchema } from "../../core/model/patient.ts";
import { appointment, device, examination, measurement, patient, result } from "./fixtures.ts";

describe("client test fixtures", () => {
  it("are valid entities (the reducer decodes event data with these schemas)", () => {
    const checks: Array<[unknown, unknown]> = [
      [PatientSchema, patient("p1")],
      [MeasurementSchema, measurement("m1", { result: result("m1", "p1") })],
      [ExaminationSchema, examination("e1")],
      [AppointmentSchema, appointment("a1", { examinations: [examination("e1")] })],
      [DeviceSchema, device("SN1", { perimetries: [measurement("m1")] })],
    ];
    for (const [schema, value] of checks) {
      const r = decode(schema as never, value);
      expect(Result.isSuccess(r) ? "ok" : (r as { failure: { message: string } }).failure.message).toBe("ok");
    }
  });
});
