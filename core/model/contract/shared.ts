import { Schema } from "effect";
import { TestTypeSchema } from "../enums.ts";
import { DeviceSnSchema, IdSchema } from "../ids.ts";
import { BooleanFromQuerySchema } from "../wire.ts";

// Query and answer shapes several calls share. Query values travel as strings; ids are strings, so most need no
// conversion (see ../ids.ts).

/** ?id={id} */
export const IdQuery = Schema.Struct({ id: IdSchema });
/** ?patientId={id} */
export const PatientIdQuery = Schema.Struct({ patientId: IdSchema });
/** ?deviceSn={sn} */
export const DeviceSnQuery = Schema.Struct({ deviceSn: DeviceSnSchema });
/** ?appointmentId={id} */
export const AppointmentIdQuery = Schema.Struct({ appointmentId: IdSchema });
/**
 * examination/all?patientId={id}&taken={json}&examinationType={type}. Each filter is optional (our design: home's
 * recent and scheduled lists ask across patients).
 */
export const ExaminationListQuery = Schema.Struct({
  patientId: Schema.optionalKey(IdSchema),
  taken: Schema.optionalKey(BooleanFromQuerySchema),
  examinationType: Schema.optionalKey(TestTypeSchema),
});

/** Answer of a permanent delete (our design: the seeds show no answer): the id that is gone. */
export const Deleted = Schema.Struct({ id: IdSchema });
/** Answer of calls with nothing to return. */
export const Empty = Schema.Null;
