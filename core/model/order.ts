import { Schema } from "effect";

// A worklist step's identifiers (issue 29), kept with the measurement or examination queued for it.

/** The order a measurement was taken for (a worklist step): it travels into the result's OPV and FHIR. */
export const OrderSchema = Schema.Struct({
  accessionNumber: Schema.NullOr(Schema.String),
  requestedProcedureId: Schema.NullOr(Schema.String),
  scheduledProcedureStepId: Schema.NullOr(Schema.String),
  /** The Study Instance UID the RIS assigned, so the result joins the ordered study. */
  studyInstanceUid: Schema.NullOr(Schema.String),
});
export type Order = Schema.Schema.Type<typeof OrderSchema>;
