import { Schema } from "effect";
import { RegulatoryRegionSchema } from "./enums.ts";
import { IdSchema } from "./ids.ts";

// Organisation (scheduling §3 "Organisation: current, fetched"). multiTests is the multi-tests plugin (accounts §6:
// switches bin and home to appointments); market/country choose the regulatory documents.
export const OrganisationSchema = Schema.Struct({
  id: IdSchema,
  name: Schema.String,
  multiTests: Schema.Boolean,
  market: RegulatoryRegionSchema,
  /** ISO 3166-1 alpha-2, upper case. */
  country: Schema.NullOr(Schema.String),
});
export type Organisation = Schema.Schema.Type<typeof OrganisationSchema>;
