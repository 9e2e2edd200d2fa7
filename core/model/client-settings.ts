import { Effect, Schema } from "effect";
import { Pattern, PatternSchema } from "./enums.ts";

// Client settings kept in local storage (scheduling §3, accounts §3): which result panels are expanded and the
// analysis pattern. A missing key takes its default, so an older stored value still decodes.

const withDefault = <S extends Schema.Top & { readonly Encoded: boolean | number }>(schema: S, value: S["Encoded"]) =>
  schema.pipe(Schema.withDecodingDefaultKey(Effect.succeed(value)));

/** Seeds: "progressionChartExpanded (default true)", "pattern (default analysis pattern 24-2)"; the others default to false (our choice). */
export const clientSettingsDefaults = {
  analysisExpanded: false,
  progressionChartExpanded: true,
  historyExpanded: false,
  pattern: Pattern.P24_2,
} as const;

export const ClientSettingsSchema = Schema.Struct({
  analysisExpanded: withDefault(Schema.Boolean, clientSettingsDefaults.analysisExpanded),
  progressionChartExpanded: withDefault(Schema.Boolean, clientSettingsDefaults.progressionChartExpanded),
  historyExpanded: withDefault(Schema.Boolean, clientSettingsDefaults.historyExpanded),
  pattern: withDefault(PatternSchema, clientSettingsDefaults.pattern),
});
export type ClientSettings = Schema.Schema.Type<typeof ClientSettingsSchema>;
