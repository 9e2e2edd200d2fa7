import { describe, expect, it } from "vitest";
import { patternCode, strategyCode } from "../../core/dicom/codes.ts";
import { perimetryCodes } from "../../core/dicom/perimetry-cids.ts";
import { protocolOf, type ProtocolCode } from "../../core/dicom/worklist-protocol.ts";
import type { LocalProtocolCode } from "../../core/model/dicom-network.ts";
import { Pattern, Strategy } from "../../core/model/enums.ts";

// Issue 29: "Pattern and strategy come from the step's protocol code: the standard's CID 4250/4251, or a
// per-organisation table of local codes." core/dicom/worklist-protocol.ts reads a step's Scheduled Protocol Code
// Sequence as one Isopter test, or a reason a reader can act on.

const of = (c: { CodingSchemeDesignator: string; CodeValue: string; CodeMeaning: string }): ProtocolCode => ({
  scheme: c.CodingSchemeDesignator,
  value: c.CodeValue,
  meaning: c.CodeMeaning,
});
const code = (scheme: string, value: string, meaning: string | null = null): ProtocolCode => ({ scheme, value, meaning });

describe("a worklist step's protocol codes", () => {
  it("every pattern and strategy Isopter writes in its OPV reads back as that test", () => {
    for (const p of Object.values(Pattern).filter((p) => p !== Pattern.Undefined))
      for (const s of Object.values(Strategy).filter((s) => s !== Strategy.Undefined))
        expect(protocolOf([of(patternCode[p]), of(strategyCode[s])], [])).toEqual({ ok: true, pattern: p, strategy: s, from: "standard" });
  });

  it("CID 4250/4251 DCM codes in either order, schemes in any case and padded values", () => {
    expect(protocolOf([code(" dcm ", "111826 "), code("DCM", "111800", "Visual Field 24-2 Test Pattern")], [])).toEqual({
      ok: true,
      pattern: Pattern.P24_2,
      strategy: Strategy.DS,
      from: "standard",
    });
    expect(protocolOf([code("DCM", "111802"), code("DCM", "111827")], [])).toMatchObject({
      pattern: Pattern.P30_2,
      strategy: Strategy.Normal,
    });
    expect(protocolOf([code("DCM", "111809"), code("DCM", "111828")], [])).toMatchObject({
      pattern: Pattern.Esterman,
      strategy: Strategy.OneLevel,
    });
  });

  it("a code that is neither the standard's nor a local one is ignored beside a test, and named when nothing else orders one", () => {
    expect(
      protocolOf([code("99RIS", "VF-A"), of(perimetryCodes.screening), code("DCM", "111801"), code("DCM", "111826")], []),
    ).toMatchObject({ ok: true, pattern: Pattern.P10_2, strategy: Strategy.DS });
    const refused = protocolOf([code("99RIS", "VF-UNKNOWN", "Perimetry left")], []);
    expect(refused).toEqual({
      ok: false,
      reason: `the protocol code 99RIS VF-UNKNOWN "Perimetry left" is neither a CID 4250/4251 code Isopter runs nor one of the organisation's local codes`,
    });
  });

  it("SITA Standard (CID 4251) is refused with its name, not run as another strategy", () => {
    const d = protocolOf([of(perimetryCodes.pattern24_2), of(perimetryCodes.sitaStandard)], []);
    expect(d.ok).toBe(false);
    if (!d.ok) {
      expect(d.reason).toContain('DCM 111815 "Visual Field SITA-Standard Test Strategy" (CID 4251)');
      expect(d.reason).toContain("no local code of the organisation maps it");
    }
    const pattern = protocolOf([code("DCM", "111803"), code("DCM", "111826")], []);
    expect(pattern.ok ? "" : pattern.reason).toContain('the test pattern DCM 111803 "Visual Field 60-4 Test Pattern" (CID 4250)');
  });

  it("a local code wins: it maps SITA Standard, or a RIS's own code, to a whole test", () => {
    const local: LocalProtocolCode[] = [
      { scheme: "DCM", value: "111815", pattern: Pattern.P24_2, strategy: Strategy.DS },
      { scheme: "99clinic", value: "GLAUC-FU", pattern: Pattern.G, strategy: Strategy.SORS },
    ];
    expect(protocolOf([of(perimetryCodes.pattern30_2), of(perimetryCodes.sitaStandard)], local)).toEqual({
      ok: true,
      pattern: Pattern.P24_2,
      strategy: Strategy.DS,
      from: "local",
    });
    expect(protocolOf([code("99CLINIC", "GLAUC-FU", "Glaucoma follow-up")], local)).toEqual({
      ok: true,
      pattern: Pattern.G,
      strategy: Strategy.SORS,
      from: "local",
    });
    // Even over Isopter's own codes in the same step.
    expect(
      protocolOf([of(patternCode[Pattern.P10_2]), of(strategyCode[Strategy.Normal]), code("99CLINIC", "GLAUC-FU")], local),
    ).toMatchObject({
      pattern: Pattern.G,
      strategy: Strategy.SORS,
    });
  });

  it("refuses what does not name one test: no code, a pattern alone, two patterns, local codes that disagree", () => {
    const reason = (codes: ProtocolCode[], local: LocalProtocolCode[] = []) => {
      const d = protocolOf(codes, local);
      return d.ok ? "ok" : d.reason;
    };
    expect(reason([])).toBe("the step has no protocol code");
    expect(reason([code("DCM", " ")])).toBe("the step has no protocol code");
    expect(reason([code("DCM", "111800")])).toBe("the protocol names the pattern 24-2 but no test strategy (a local code can name both)");
    expect(reason([code("DCM", "111826")])).toBe("the protocol names the strategy DS but no test pattern (a local code can name both)");
    expect(reason([code("DCM", "111800"), code("DCM", "111802"), code("DCM", "111826")])).toContain("name more than one pattern");
    expect(reason([code("DCM", "111800"), code("DCM", "111826"), code("DCM", "111827")])).toContain("name more than one strategy");
    expect(
      reason(
        [code("L", "A"), code("L", "B")],
        [
          { scheme: "L", value: "A", pattern: Pattern.P24_2, strategy: Strategy.DS },
          { scheme: "L", value: "B", pattern: Pattern.P10_2, strategy: Strategy.DS },
        ],
      ),
    ).toBe("the local codes L A (24-2 DS) and L B (10-2 DS) order different tests");
    // Isopter's "not recorded" codes order nothing.
    expect(reason([of(patternCode[Pattern.Undefined]), of(strategyCode[Strategy.Undefined])])).toContain("are neither");
  });
});
