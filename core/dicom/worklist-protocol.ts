import type { LocalProtocolCode } from "../model/dicom-network.ts";
import { Pattern, patternLabel, Strategy, strategyCodes } from "../model/enums.ts";
import { type Code, patternCode, strategyCode } from "./codes.ts";
import { type CodedEntry, cid4250ByCode, cid4251ByCode } from "./perimetry-cids.ts";

// Which test a worklist step orders (issue 29: "Pattern and strategy come from the step's protocol code: the standard's
// CID 4250/4251, or a per-organisation table of local codes"). A step's Scheduled Protocol Code Sequence (0040,0008)
// lists coded entries; this reads them as one Isopter pattern and strategy, or says why it cannot. Rules:
// - The organisation's local codes win: a local code names a whole test (pattern and strategy), and when one of the
//   step's codes is one, the standard's codes beside it are not consulted. Two local codes naming different tests refuse
//   the step.
// - Otherwise the standard's codes: Isopter's own pattern and strategy codes (core/dicom/codes.ts, the ones its OPV
//   export writes: CID 4250/4251 DCM codes where the standard has one, 99ISOPTER where it has none) read backwards. The
//   step needs exactly one pattern and one strategy; a step naming a pattern but no strategy (or the reverse) is refused
//   rather than given a default, since a default would run a test nobody ordered.
// - A CID 4250 pattern or CID 4251 strategy Isopter does not run (the 60-4 pattern, SITA Standard, Full Threshold...)
//   is refused with its name. It is not mapped to "the nearest" Isopter test: SITA Standard is not SORS or DS, their
//   results are not comparable point for point, and a progression series would mix them silently. A clinic that wants
//   its RIS's SITA Standard orders run as, say, 24-2 DS says so with a local code (scheme DCM, value 111815), which wins.
// - Codes that are neither (a RIS's own procedure code beside the standard's, a CID 4256 screening/diagnostic
//   modifier) are ignored when the others name a test, and named in the refusal when nothing does.
// Schemes compare without case or padding; values without padding (PS3.3 8.1: designator and value identify a code,
// the meaning is for people).

/** A coded entry of the step as the worklist provider sent it. */
export interface ProtocolCode {
  readonly scheme: string;
  readonly value: string;
  readonly meaning: string | null;
}

export type ProtocolDecision =
  | {
      readonly ok: true;
      readonly pattern: Pattern;
      readonly strategy: Strategy;
      /** Where the test came from: a local code of the organisation, or the standard's (and Isopter's own) codes. */
      readonly from: "local" | "standard";
    }
  | { readonly ok: false; readonly reason: string };

const schemeKey = (scheme: string) => scheme.trim().toUpperCase();
const key = (scheme: string, value: string) => `${schemeKey(scheme)}\u0000${value.trim()}`;

/** Isopter's own codes backwards; the Undefined pattern and strategy (a "not recorded" code) order nothing. */
const reverse = <T extends number>(table: Record<T, Code>, undefinedValue: T): ReadonlyMap<string, T> =>
  new Map(
    (Object.entries(table) as Array<[string, Code]>)
      .filter(([k]) => Number(k) !== undefinedValue)
      .map(([k, c]) => [key(c.CodingSchemeDesignator, c.CodeValue), Number(k) as T]),
  );
const patternByCode = reverse<Pattern>(patternCode, Pattern.Undefined);
const strategyByCode = reverse<Strategy>(strategyCode, Strategy.Undefined);

/** `DCM 111815 "Visual Field SITA-Standard Test Strategy"`: a code as a refusal names it. */
export const describeCode = (c: ProtocolCode): string =>
  `${c.scheme.trim() || "(no scheme)"} ${c.value.trim()}${c.meaning && c.meaning.trim() !== "" ? ` "${c.meaning.trim()}"` : ""}`;

const describeStandard = (e: CodedEntry): string => `${e.CodingSchemeDesignator} ${e.CodeValue} "${e.CodeMeaning}"`;

const testName = (pattern: Pattern, strategy: Strategy) => `${patternLabel[pattern]} ${strategyCodes[strategy].label}`;

/** The local code a step's code is, if any (the first of the organisation's table that matches). */
const localOf = (c: ProtocolCode, localCodes: readonly LocalProtocolCode[]): LocalProtocolCode | undefined =>
  localCodes.find((l) => key(l.scheme, l.value) === key(c.scheme, c.value));

/** The test a step's protocol codes order, or the reason there is none. */
export function protocolOf(codes: readonly ProtocolCode[], localCodes: readonly LocalProtocolCode[]): ProtocolDecision {
  const usable = codes.filter((c) => c.value.trim() !== "");
  if (usable.length === 0) return { ok: false, reason: "the step has no protocol code" };

  const locals = usable.flatMap((c) => {
    const l = localOf(c, localCodes);
    return l ? [{ code: c, local: l }] : [];
  });
  if (locals.length > 0) {
    const first = locals[0]!;
    const other = locals.find((l) => l.local.pattern !== first.local.pattern || l.local.strategy !== first.local.strategy);
    if (other)
      return {
        ok: false,
        reason:
          `the local codes ${describeCode(first.code)} (${testName(first.local.pattern, first.local.strategy)}) and ` +
          `${describeCode(other.code)} (${testName(other.local.pattern, other.local.strategy)}) order different tests`,
      };
    return { ok: true, pattern: first.local.pattern, strategy: first.local.strategy, from: "local" };
  }

  const patterns = new Map<Pattern, ProtocolCode>();
  const strategies = new Map<Strategy, ProtocolCode>();
  const notRun: string[] = [];
  const unknown: ProtocolCode[] = [];
  for (const c of usable) {
    const k = key(c.scheme, c.value);
    const pattern = patternByCode.get(k);
    const strategy = strategyByCode.get(k);
    if (pattern !== undefined) {
      if (!patterns.has(pattern)) patterns.set(pattern, c);
    } else if (strategy !== undefined) {
      if (!strategies.has(strategy)) strategies.set(strategy, c);
    } else {
      const cid4250 = cid4250ByCode(c.scheme, c.value);
      const cid4251 = cid4251ByCode(c.scheme, c.value);
      if (cid4250) notRun.push(`the test pattern ${describeStandard(cid4250)} (CID 4250)`);
      else if (cid4251) notRun.push(`the test strategy ${describeStandard(cid4251)} (CID 4251)`);
      else unknown.push(c);
    }
  }
  if (notRun.length > 0)
    return { ok: false, reason: `Isopter does not run ${notRun.join(" or ")}, and no local code of the organisation maps it` };
  if (patterns.size > 1 || strategies.size > 1) {
    const named = [...patterns.values(), ...strategies.values()].map(describeCode).join(", ");
    return { ok: false, reason: `the protocol codes name more than one ${patterns.size > 1 ? "pattern" : "strategy"}: ${named}` };
  }
  const [pattern] = patterns.keys();
  const [strategy] = strategies.keys();
  if (pattern !== undefined && strategy !== undefined) return { ok: true, pattern, strategy, from: "standard" };
  if (pattern === undefined && strategy === undefined)
    return {
      ok: false,
      reason: `the protocol code${unknown.length > 1 ? "s" : ""} ${unknown.map(describeCode).join(", ")} ${
        unknown.length > 1 ? "are" : "is"
      } neither a CID 4250/4251 code Isopter runs nor one of the organisation's local codes`,
    };
  return pattern !== undefined
    ? { ok: false, reason: `the protocol names the pattern ${patternLabel[pattern]} but no test strategy (a local code can name both)` }
    : {
        ok: false,
        reason: `the protocol names the strategy ${strategyCodes[strategy!].label} but no test pattern (a local code can name both)`,
      };
}
