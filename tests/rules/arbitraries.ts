import fc from "fast-check";
import { Eye, Languages, Pattern, Showtime, SorsLocations, StimuliUpdate, StimulusSize, Strategy } from "../../core/model/enums.ts";
import type { MeasurementConfig } from "../../core/model/measurement-config.ts";
import { FormModes, Variants, type ConfigContext } from "../../core/rules/form-context.ts";
import type { ConfigChange } from "../../core/rules/config-reducer.ts";

// Arbitraries over the whole enum domains (including values the table refuses), for the rules' property tests.

export const anyPattern = fc.constantFrom(...Object.values(Pattern));
export const anyStrategy = fc.constantFrom(...Object.values(Strategy));
export const anySize = fc.constantFrom(...Object.values(StimulusSize));
export const anyEye = fc.constantFrom(...Object.values(Eye));
export const anyShowtime = fc.constantFrom(...Object.values(Showtime));
export const anyUpdate = fc.constantFrom(...Object.values(StimuliUpdate));
export const anySors = fc.constantFrom(...SorsLocations);
export const anyLanguage = fc.constantFrom(...Languages);

export const anyContext: fc.Arbitrary<ConfigContext> = fc.record({
  mode: fc.constantFrom(...FormModes),
  variant: fc.constantFrom(...Variants),
  patientLanguage: fc.option(anyLanguage, { nil: null }),
});

export const anyConfig: fc.Arbitrary<MeasurementConfig> = fc.record({
  patientId: fc.option(fc.string({ maxLength: 8 }), { nil: null }),
  deviceSn: fc.option(fc.string({ maxLength: 8 }), { nil: null }),
  displayName: fc.string({ maxLength: 20 }),
  eye: anyEye,
  pattern: anyPattern,
  strategy: anyStrategy,
  stimuliUpdate: anyUpdate,
  stimuliSize: anySize,
  stimuliShowtime: anyShowtime,
  sorsStage: anySors,
  playSound: fc.boolean(),
  trackGaze: fc.boolean(),
  audioGuide: fc.boolean(),
  tutorial: fc.boolean(),
  notes: fc.string({ maxLength: 300 }),
});

export const anyChange: fc.Arbitrary<ConfigChange> = fc.oneof(
  anyPattern.map((value) => ({ field: "pattern", value }) as const),
  anyStrategy.map((value) => ({ field: "strategy", value }) as const),
  anySize.map((value) => ({ field: "stimuliSize", value }) as const),
  anyEye.map((value) => ({ field: "eye", value }) as const),
  anyShowtime.map((value) => ({ field: "stimuliShowtime", value }) as const),
  anyUpdate.map((value) => ({ field: "stimuliUpdate", value }) as const),
  anySors.map((value) => ({ field: "sorsStage", value }) as const),
  fc.boolean().map((value) => ({ field: "playSound", value }) as const),
  fc.boolean().map((value) => ({ field: "trackGaze", value }) as const),
  fc.boolean().map((value) => ({ field: "audioGuide", value }) as const),
  fc.boolean().map((value) => ({ field: "tutorial", value }) as const),
  fc.string({ maxLength: 300 }).map((value) => ({ field: "notes", value }) as const),
  fc.string({ maxLength: 20 }).map((value) => ({ field: "displayName", value }) as const),
  fc.option(fc.string({ maxLength: 8 }), { nil: null }).map((value) => ({ field: "patientId", value }) as const),
  fc.option(fc.string({ maxLength: 8 }), { nil: null }).map((value) => ({ field: "deviceSn", value }) as const),
);
