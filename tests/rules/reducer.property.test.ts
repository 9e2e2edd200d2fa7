import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Schema } from "effect";
import { MeasurementConfigSchema } from "../../core/model/measurement-config.ts";
import { isConfigAllowed } from "../../core/rules/allowed-config.ts";
import { applyConfigChange } from "../../core/rules/config-reducer.ts";
import { defaultMeasurementConfig } from "../../core/rules/defaults.ts";
import { normaliseConfig, onPatientSelected } from "../../core/rules/form-dependencies.ts";
import { isSorsStrategy } from "../../core/rules/pattern-options.ts";
import { sizesFor } from "../../core/rules/size-by-strategy.ts";
import { StimulusSize } from "../../core/model/enums.ts";
import { anyChange, anyConfig, anyContext, anyLanguage } from "./arbitraries.ts";
import { seedObjections, tableRow } from "./table-oracle.ts";

const runs = { numRuns: 300 };
const validStart = fc.tuple(anyConfig, anyContext).map(([c, ctx]) => ({ config: normaliseConfig(c, ctx), context: ctx }));
/** A user step: set a field, or pick/clear a patient (which changes the context's language). */
const anyStep = fc.oneof(
  { weight: 6, arbitrary: anyChange.map((change) => ({ kind: "change" as const, change })) },
  { weight: 1, arbitrary: fc.option(anyLanguage, { nil: null }).map((lang) => ({ kind: "patient" as const, lang })) },
);

describe("the measurement form reducer (property)", () => {
  it("normalising any config gives one the seed's table allows", () => {
    fc.assert(
      fc.property(validStart, ({ config, context }) => {
        expect(seedObjections(config, context)).toEqual([]);
        expect(isConfigAllowed(config, context)).toBe(true);
      }),
      runs,
    );
  });

  it("from any valid config, any sequence of user changes yields only configs the table allows", () => {
    fc.assert(
      fc.property(validStart, fc.array(anyStep, { maxLength: 25 }), (start, steps) => {
        let { config, context } = start;
        for (const step of steps) {
          if (step.kind === "change") config = applyConfigChange(config, step.change, context);
          else
            ({ config, context } = onPatientSelected(
              config,
              step.lang === null ? null : { id: "p", name: "Ann", lang: step.lang },
              context,
            ));
          expect(seedObjections(config, context), JSON.stringify({ step, config, context })).toEqual([]);
          expect(Schema.is(MeasurementConfigSchema)(config)).toBe(true);
        }
      }),
      runs,
    );
  });

  it("a choice the table allows is taken; one it refuses leaves the config unchanged", () => {
    fc.assert(
      fc.property(validStart, anyChange, ({ config, context }, change) => {
        const next = applyConfigChange(config, change, context);
        const row = tableRow[config.pattern]!;
        const f = change.field;
        if (f === "strategy") {
          if ((row.strategies as readonly number[]).includes(change.value)) {
            expect(next.strategy).toBe(change.value);
            if (isSorsStrategy(change.value)) expect(next.stimuliSize).toBe(StimulusSize.III_ADAPTIVE);
          } else expect(next).toBe(config);
        }
        if (f === "stimuliSize")
          expect(next.stimuliSize).toBe(
            sizesFor(config.pattern, config.strategy).includes(change.value) ? change.value : config.stimuliSize,
          );
        if (f === "pattern") expect(next.pattern).toBe(tableRow[change.value] ? change.value : config.pattern);
        if (f === "audioGuide" && !change.value) expect(next.tutorial).toBe(false);
        if (f === "displayName" || f === "patientId" || f === "deviceSn" || f === "stimuliUpdate" || f === "playSound")
          expect(next[f]).toBe(change.value);
      }),
      runs,
    );
  });

  it("the pattern change keeps every field the new pattern allows", () => {
    fc.assert(
      fc.property(
        validStart,
        fc.constantFrom(1, 2, 3, 4, 5, 6, 7) as fc.Arbitrary<1 | 2 | 3 | 4 | 5 | 6 | 7>,
        ({ config, context }, pattern) => {
          const next = applyConfigChange(config, { field: "pattern", value: pattern }, context);
          const row = tableRow[pattern]!;
          if ((row.strategies as readonly number[]).includes(config.strategy)) expect(next.strategy).toBe(config.strategy);
          else expect(next.strategy).toBe(row.strategies[0]);
          if ((row.showtimes as readonly number[]).includes(config.stimuliShowtime))
            expect(next.stimuliShowtime).toBe(config.stimuliShowtime);
          if (config.sorsStage !== 16 || next.strategy === 999) expect(next.sorsStage).toBe(config.sorsStage);
          else expect(next.sorsStage).toBe(36);
        },
      ),
      runs,
    );
  });

  it("the defaults normalise to themselves when creating (they are already allowed)", () => {
    for (const variant of ["older", "newer"] as const) {
      const context = { mode: "create" as const, variant, patientLanguage: "en" as const };
      expect(normaliseConfig(defaultMeasurementConfig(variant), context)).toEqual(defaultMeasurementConfig(variant));
    }
  });
});
