import { Eye, Pattern, StimulusSize, Strategy } from "../../core/model/enums.ts";
import type { MeasurementConfig } from "../../core/model/measurement-config.ts";
import type { ConfigContext } from "../../core/rules/form-context.ts";

// The scheduling seed's §5 table and rules restated independently of core/rules, so property tests check the code
// against the seed rather than against itself.
const { I, II, III, IV, V, III_ADAPTIVE } = StimulusSize;
const S = Strategy;
const rows = {
  sors: { strategies: [S.DS, S.SORS, S.SORS_screening, S.Normal, S.Supra], eyes: [Eye.Right, Eye.Left, Eye.Both], showtimes: [200, 100] },
  plain: { strategies: [S.DS, S.Normal, S.Supra], eyes: [Eye.Right, Eye.Left, Eye.Both], showtimes: [200, 100] },
  s28: { strategies: [S.Supra], eyes: [Eye.Right, Eye.Left, Eye.Both], showtimes: [200, 100] },
  esterman: { strategies: [S.OneLevel], eyes: [Eye.Binocular], showtimes: [500] },
  c40: { strategies: [S.OneLevel], eyes: [Eye.Right, Eye.Left, Eye.Both], showtimes: [200, 100] },
} as const;
export const tableRow: Partial<Record<number, (typeof rows)[keyof typeof rows]>> = {
  [Pattern.P24_2]: rows.sors,
  [Pattern.G]: rows.sors,
  [Pattern.P10_2]: rows.plain,
  [Pattern.P30_2]: rows.plain,
  [Pattern.S28]: rows.s28,
  [Pattern.Esterman]: rows.esterman,
  [Pattern.C40]: rows.c40,
};

/** "Esterman gives IV only; C40 and S28 give III only; SORS and SORS screening give III adaptive or III; supra-threshold gives III only; otherwise all six." */
export const sizesBySeed = (pattern: number, strategy: number): number[] => {
  if (pattern === Pattern.Esterman) return [IV];
  if (pattern === Pattern.C40 || pattern === Pattern.S28) return [III];
  if (strategy === S.SORS || strategy === S.SORS_screening) return [III_ADAPTIVE, III];
  if (strategy === S.Supra) return [III];
  return [I, II, III, IV, V, III_ADAPTIVE];
};

/** Every reason the seed refuses a config in a context; empty when allowed. */
export const seedObjections = (c: MeasurementConfig, ctx: ConfigContext): string[] => {
  const row = tableRow[c.pattern];
  if (!row) return ["pattern not in table"];
  const out: string[] = [];
  if (!(row.strategies as readonly number[]).includes(c.strategy)) out.push("strategy");
  else if (!sizesBySeed(c.pattern, c.strategy).includes(c.stimuliSize)) out.push("size");
  const eyes = (row.eyes as readonly number[]).filter((e) => e !== Eye.Both || ctx.mode === "create");
  if (!eyes.includes(c.eye)) out.push("eye");
  if (!(row.showtimes as readonly number[]).includes(c.stimuliShowtime)) out.push("showtime");
  if (c.strategy === S.SORS_screening ? c.sorsStage !== 16 : c.sorsStage === 16) out.push("sors 16 is SORS screening");
  const gazeOk = ctx.variant === "older" || c.trackGaze;
  if (c.tutorial && !(c.audioGuide && gazeOk && ctx.patientLanguage === "en")) out.push("tutorial");
  if ([...c.notes].length > 256) out.push("notes");
  return out;
};
