import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { GSS2_CURVES, GSS2_STAGES, gss2Boundary, gss2Stage, type Gss2Stage } from "../../../core/analytics/stages/gss2-stage.ts";

const stageOf = (md: number, psd: number): Gss2Stage => {
  const out = gss2Stage(md, psd);
  if (!out.applicable) throw new Error(out.reason);
  return out.stage;
};
const rank = (s: Gss2Stage) => GSS2_STAGES.indexOf(s);

describe("GSS 2 stage (Brusini & Filacorda 2006)", () => {
  it("'six curves part stage 0, border-line and stages 1 to 5' on the MD / PSD chart, in that order", () => {
    expect(GSS2_STAGES).toEqual(["0", "borderline", "1", "2", "3", "4", "5"]);
    for (const md of [2, 0, -1, -3, -8, -15, -25, -35])
      for (let k = 1; k < GSS2_CURVES.length; k++) expect(gss2Boundary(k, md)).toBeGreaterThan(gss2Boundary(k - 1, md));
  });

  it("a normal field (MD 0, PSD 1.5) is stage 0; the curves' PSD at MD 0 part the stages", () => {
    expect(stageOf(0, 1.5)).toBe("0");
    expect(stageOf(0.5, 0)).toBe("0");
    expect(stageOf(0, 1.93)).toBe("0");
    expect(stageOf(0, 1.934)).toBe("borderline"); // on a curve counts as beyond it (our choice)
    expect(stageOf(0, 3)).toBe("1");
    expect(stageOf(0, 5)).toBe("2");
    expect(stageOf(0, 9)).toBe("3");
    expect(stageOf(0, 14)).toBe("4");
    expect(stageOf(0, 25)).toBe("5");
  });

  it("diffuse loss with a low PSD is staged by MD alone: PSD 1 reads 0, border-line, 1, 2, 3, 4, 5 as MD falls", () => {
    expect([-1, -2.5, -4, -7, -12, -18, -24].map((md) => stageOf(md, 1))).toEqual(["0", "borderline", "1", "2", "3", "4", "5"]);
  });

  it("property: a higher PSD at the same MD never lowers the stage", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -35, max: 5, noNaN: true }),
        fc.double({ min: 0, max: 20, noNaN: true }),
        fc.double({ min: 0, max: 10, noNaN: true }),
        (md, psd, more) => {
          expect(rank(stageOf(md, psd + more))).toBeGreaterThanOrEqual(rank(stageOf(md, psd)));
        },
      ),
    );
  });

  it("property: from MD -2.2 dB on, a lower MD at the same PSD never lowers the stage", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -35, max: -2.2, noNaN: true }),
        fc.double({ min: 0, max: 20, noNaN: true }),
        fc.double({ min: 0, max: 10, noNaN: true }),
        (md, psd, less) => {
          expect(rank(stageOf(md - less, psd))).toBeGreaterThanOrEqual(rank(stageOf(md, psd)));
        },
      ),
    );
  });

  it("the curves as published rise slightly between MD 0 and -2 dB, so there a lower MD can read a stage lower", () => {
    expect(stageOf(0, 8.1)).toBe("3");
    expect(stageOf(-0.6, 8.1)).toBe("2");
  });

  it("is not applicable without the Humphrey MD and PSD", () => {
    expect(gss2Stage(Number.NaN, 2)).toEqual({ applicable: false, reason: "no-normative-database" });
  });
});
