import { Schema } from "effect";
import { EyeSchema, TestTypeSchema } from "./enums.ts";
import { ExaminationConfigSchema } from "./examination.ts";
import { IdSchema, IsoDateTimeSchema } from "./ids.ts";

// Measurement template (scheduling §2 "Templates page", accounts §3): id, name, tests each with a type.
// The seeds' page is a stub; issue #4 makes templates real, so each test also keeps an eye and a configuration (our design).

export const TemplateTestSchema = Schema.Struct({
  type: TestTypeSchema,
  eye: Schema.NullOr(EyeSchema),
  config: Schema.NullOr(ExaminationConfigSchema),
});
export type TemplateTest = Schema.Schema.Type<typeof TemplateTestSchema>;

/** What template/create and template/update send. */
export const TemplateFieldsSchema = Schema.Struct({
  name: Schema.String,
  tests: Schema.Array(TemplateTestSchema),
});
export type TemplateFields = Schema.Schema.Type<typeof TemplateFieldsSchema>;

export const TemplateSchema = Schema.Struct({
  id: IdSchema,
  ...TemplateFieldsSchema.fields,
  createdAt: IsoDateTimeSchema,
  updatedAt: IsoDateTimeSchema,
});
export type Template = Schema.Schema.Type<typeof TemplateSchema>;
