import { Schema } from "effect";
import { LanguageSchema, SexSchema } from "./enums.ts";
import { IdSchema, IsoDateSchema, IsoDateTimeSchema, type IsoDate } from "./ids.ts";

// Patient (scheduling §3, accounts §3). gender is numeric on the wire (Sex codes); birthdate an ISO date.

/** What the patient form sends (patient/register, PATCH patient): name, uniqueId, gender, lang, birthdate (+ address). */
export const PatientFieldsSchema = Schema.Struct({
  name: Schema.String,
  uniqueId: Schema.String,
  gender: SexSchema,
  lang: LanguageSchema,
  birthdate: IsoDateSchema,
  address: Schema.optionalKey(Schema.NullOr(Schema.String)),
  city: Schema.optionalKey(Schema.NullOr(Schema.String)),
  zipcode: Schema.optionalKey(Schema.NullOr(Schema.String)),
});
export type PatientFields = Schema.Schema.Type<typeof PatientFieldsSchema>;

export const PatientSchema = Schema.Struct({
  id: IdSchema,
  ...PatientFieldsSchema.fields,
  createdAt: IsoDateTimeSchema,
  updatedAt: IsoDateTimeSchema,
  /** When the patient went to the bin; null while active. */
  trashedAt: Schema.NullOr(IsoDateTimeSchema),
});
export type Patient = Schema.Schema.Type<typeof PatientSchema>;

export const isTrashed = (item: { readonly trashedAt: string | null }): boolean => item.trashedAt !== null;

/**
 * Age in whole years on `today` (both ISO dates): the header shows "birthdate with age" (accounts §2).
 * Pure: the caller passes today's date (from the Clock port).
 */
export const ageOn = (birthdate: IsoDate, today: IsoDate): number => {
  const [by, bm, bd] = birthdate.split("-").map(Number) as [number, number, number];
  const [ty, tm, td] = today.split("-").map(Number) as [number, number, number];
  const hadBirthday = tm > bm || (tm === bm && td >= bd);
  return Math.max(0, ty - by - (hadBirthday ? 0 : 1));
};
