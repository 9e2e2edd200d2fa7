import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  acuityNotation,
  classifyColourVision,
  COLOUR_PLATES,
  logMARFromOptotypesRead,
  snellenFeet,
  snellenMetres,
  type PlateAnswer,
  type PlateKind,
  type PlateRead,
} from "../../core/rules/acuity-colour.ts";

// Acuity notations and letter scoring, and the colour-vision classification from plate answers: worked examples a
// clinician can check by eye, and properties over every value.

describe("logMAR to Snellen and decimal", () => {
  it.each([
    [0, "6/6", "20/20", 1],
    [0.1, "6/7.5", "20/25", 0.8],
    [0.2, "6/9.5", "20/32", 0.63],
    [0.3, "6/12", "20/40", 0.5],
    [0.5, "6/19", "20/63", 0.32],
    [0.7, "6/30", "20/100", 0.2],
    [1, "6/60", "20/200", 0.1],
    [1.3, "6/120", "20/400", 0.05],
    [-0.1, "6/4.8", "20/16", 1.25],
    [-0.3, "6/3", "20/10", 2],
    [0.24, "6/9.5", "20/32", 0.63], // letter-by-letter values fall on the nearest line
    [0.26, "6/12", "20/40", 0.5],
    [0.05, "6/7.5", "20/25", 0.8], // a tie goes to the worse line
    [-0.5, "6/3", "20/10", 2], // clamped to the chart
    [2.4, "6/600", "20/2000", 0.01],
  ])("logMAR %s is %s, %s, decimal %s", (logMAR, metres, feet, decimal) => {
    expect(snellenMetres(logMAR)).toBe(metres);
    expect(snellenFeet(logMAR)).toBe(feet);
    expect(acuityNotation(logMAR).decimal).toBe(decimal);
  });

  const logMAR = fc.integer({ min: -300, max: 2000 }).map((n) => n / 1000);
  it("worse logMAR never gives a better notation (monotone)", () => {
    fc.assert(
      fc.property(logMAR, logMAR, (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const x = acuityNotation(lo),
          y = acuityNotation(hi);
        expect(y.metres).toBeGreaterThanOrEqual(x.metres);
        expect(y.feet).toBeGreaterThanOrEqual(x.feet);
        expect(y.decimal).toBeLessThanOrEqual(x.decimal);
      }),
    );
  });

  it("the three notations are the same acuity (within the charts' rounding, 5 %) and the line is within half a line", () => {
    fc.assert(
      fc.property(logMAR, (v) => {
        const n = acuityNotation(v);
        expect(Math.abs(n.lineLogMAR - v)).toBeLessThanOrEqual(0.05 + 1e-9);
        const exact = 10 ** n.lineLogMAR;
        expect(Math.abs(n.metres / 6 / exact - 1)).toBeLessThan(0.05);
        expect(Math.abs(n.feet / 20 / exact - 1)).toBeLessThan(0.05);
        expect(Math.abs(n.decimal * exact - 1)).toBeLessThan(0.05);
      }),
    );
  });
});

describe("letter-by-letter scoring", () => {
  it("ETDRS: none read 1.1, the top line 1.0, 35 letters 0.4, all 70 -0.3", () => {
    expect(logMARFromOptotypesRead(0)).toBe(1.1);
    expect(logMARFromOptotypesRead(5)).toBe(1);
    expect(logMARFromOptotypesRead(35)).toBe(0.4);
    expect(logMARFromOptotypesRead(70)).toBe(-0.3);
  });
  it("each letter read is worth 0.02 logMAR down to the chart's end (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 69 }), (n) => {
        expect(logMARFromOptotypesRead(n) - logMARFromOptotypesRead(n + 1)).toBeCloseTo(0.02, 9);
      }),
    );
    expect(logMARFromOptotypesRead(90)).toBe(-0.3);
  });
});

const read = (kind: PlateKind, answer: PlateAnswer): PlateRead => ({ kind, answer });
/** The headset's plate set answered by `answer(kind, index among its kind)`. */
const answered = (answer: (kind: PlateKind, i: number) => PlateAnswer): PlateRead[] => {
  const seen = new Map<PlateKind, number>();
  return COLOUR_PLATES.map((kind) => {
    const i = seen.get(kind) ?? 0;
    seen.set(kind, i + 1);
    return read(kind, answer(kind, i));
  });
};

describe("colour-vision classification (worked examples)", () => {
  it("every plate read normally: normal, all plates correct", () => {
    expect(classifyColourVision(answered(() => "normal"))).toEqual({ platesPresented: 19, platesCorrect: 19, classification: "normal" });
  });
  it("a typical deuteranope: red-green plates misread, the classification plates show the deutan numeral", () => {
    const r = classifyColourVision(
      answered((k, i) => (k === "red-green" ? (i < 2 ? "normal" : "deficient") : k === "classification" ? "deutan" : "normal")),
    );
    expect(r).toEqual({ platesPresented: 19, platesCorrect: 1 + 2 + 4, classification: "deutan" });
  });
  it("a protanope", () => {
    expect(
      classifyColourVision(answered((k) => (k === "red-green" ? "deficient" : k === "classification" ? "protan" : "normal")))
        .classification,
    ).toBe("protan");
  });
  it("red-green failed but the classification plates do not tell: red-green", () => {
    expect(
      classifyColourVision(
        answered((k, i) => (k === "red-green" ? "deficient" : k === "classification" ? (i === 0 ? "protan" : "deutan") : "normal")),
      ).classification,
    ).toBe("red-green");
  });
  it("red-green passed, three of four tritan plates missed: tritan", () => {
    expect(classifyColourVision(answered((k, i) => (k === "tritan" && i > 0 ? "deficient" : "normal"))).classification).toBe("tritan");
  });
  it("two red-green plates missed of 12 still passes (10/12 = 83 %); four missed (67 %) is between the marks", () => {
    expect(classifyColourVision(answered((k, i) => (k === "red-green" && i < 2 ? "deficient" : "normal"))).classification).toBe("normal");
    expect(classifyColourVision(answered((k, i) => (k === "red-green" && i < 4 ? "deficient" : "normal"))).classification).toBe(
      "inconclusive",
    );
  });
  it("the demonstration plate not read: inconclusive whatever else", () => {
    expect(classifyColourVision(answered((k) => (k === "demonstration" ? "none" : "normal"))).classification).toBe("inconclusive");
  });
  it("red-green and tritan both failed: inconclusive; no plates: inconclusive", () => {
    expect(classifyColourVision(answered((k) => (k === "red-green" || k === "tritan" ? "none" : "normal"))).classification).toBe(
      "inconclusive",
    );
    expect(classifyColourVision([])).toEqual({ platesPresented: 0, platesCorrect: 0, classification: "inconclusive" });
  });
});

describe("colour-vision classification (properties)", () => {
  const answer = fc.constantFrom<PlateAnswer>("normal", "deficient", "protan", "deutan", "none");
  const plates = fc.array(
    fc.record({ kind: fc.constantFrom<PlateKind>("demonstration", "red-green", "classification", "tritan"), answer }),
    { maxLength: 30 },
  );

  it("counts: plates presented is the number of plates, correct those read normally, never more", () => {
    fc.assert(
      fc.property(plates, (p) => {
        const r = classifyColourVision(p);
        expect(r.platesPresented).toBe(p.length);
        expect(r.platesCorrect).toBe(p.filter((x) => x.answer === "normal").length);
        expect(r.platesCorrect).toBeLessThanOrEqual(r.platesPresented);
      }),
    );
  });

  it("the order of the plates does not matter", () => {
    const withShuffle = plates.chain((p) =>
      fc.shuffledSubarray(p, { minLength: p.length, maxLength: p.length }).map((q) => [p, q] as const),
    );
    fc.assert(
      fc.property(withShuffle, ([p, shuffled]) => {
        expect(classifyColourVision(shuffled)).toEqual(classifyColourVision(p));
      }),
    );
  });

  it("misreading one more plate never turns a deficiency or an inconclusive test into normal", () => {
    fc.assert(
      fc.property(
        plates,
        fc.nat(),
        answer.filter((a) => a !== "normal"),
        (p, at, wrong) => {
          fc.pre(p.length > 0);
          const i = at % p.length;
          const before = classifyColourVision(p).classification;
          const after = classifyColourVision(p.map((x, j) => (j === i ? { ...x, answer: wrong } : x))).classification;
          if (before !== "normal") expect(after).not.toBe("normal");
        },
      ),
    );
  });

  it("errors on tritan plates alone never give a red-green class; errors on red-green plates alone never give tritan", () => {
    fc.assert(
      fc.property(fc.array(answer, { minLength: 19, maxLength: 19 }), (wrong) => {
        const tritanOnly = classifyColourVision(COLOUR_PLATES.map((k, i) => read(k, k === "tritan" ? wrong[i]! : "normal"))).classification;
        expect(["normal", "tritan"]).toContain(tritanOnly);
        const redGreenOnly = classifyColourVision(
          COLOUR_PLATES.map((k, i) => read(k, k === "red-green" ? wrong[i]! : "normal")),
        ).classification;
        expect(redGreenOnly).not.toBe("tritan");
      }),
    );
  });
});
