import { describe, expect, it } from "vitest";
import { getPattern } from "../../core/analytics/patterns.ts";
import { Eye, Pattern } from "../../core/model/enums.ts";
import { createPatient } from "../../simulator/perimetry/patient.ts";
import { PROFILES, PROFILE_NAMES } from "../../simulator/perimetry/profiles.ts";
import { createRng } from "../../simulator/perimetry/random.ts";
import { hillOfVision } from "../../simulator/perimetry/hill.ts";

const p24 = getPattern(Pattern.P24_2);
const make = (name: keyof typeof PROFILES, seed: number, eye: Eye = Eye.Right, pattern = p24) =>
  createPatient(PROFILES[name], { geometry: pattern, eye, rng: createRng(seed) });
const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const md = (name: keyof typeof PROFILES, seed: number) => {
  const p = make(name, seed);
  const used = p24.points.map((_, i) => i).filter((i) => !p24.blindSpotIndices.includes(i));
  return mean(used.map((i) => p.trueThresholds[i]! - hillOfVision(p24.points[i]!, p.age)));
};

describe("simulated patient", () => {
  it("is reproducible from its seed", () => {
    for (const name of PROFILE_NAMES) {
      const a = make(name, 7),
        b = make(name, 7);
      expect(a.trueThresholds).toEqual(b.trueThresholds);
      const ga = Array.from({ length: 20 }, () => a.respondAt(3, 25, a.gaze()));
      const gb = Array.from({ length: 20 }, () => b.respondAt(3, 25, b.gaze()));
      expect(ga).toEqual(gb);
    }
  });

  it("profiles order by severity: mean deviation healthy > early > moderate > advanced", () => {
    const avg = (name: keyof typeof PROFILES) => mean(Array.from({ length: 20 }, (_, s) => md(name, s)));
    const [h, e, m, a] = (["healthy", "early", "moderate", "advanced"] as const).map(avg);
    expect(h!).toBeGreaterThan(-1.5);
    expect(e!).toBeLessThan(h!);
    expect(m!).toBeLessThan(e! - 2);
    expect(a!).toBeLessThan(m! - 5);
    expect(a!).toBeLessThan(-12);
  });

  it("glaucoma respects the horizontal meridian in early disease: loss sits mostly in one hemifield", () => {
    let oneSided = 0;
    for (let s = 0; s < 20; s++) {
      const p = make("early", s);
      const loss = p24.points.map((pt, i) => ({ up: pt.y > 0, d: hillOfVision(pt, p.age) - p.trueThresholds[i]! }));
      const sup = loss.filter((l) => l.up && l.d > 6).length,
        inf = loss.filter((l) => !l.up && l.d > 6).length;
      if (Math.min(sup, inf) <= Math.max(sup, inf) / 3) oneSided++;
    }
    expect(oneSided).toBeGreaterThanOrEqual(14);
  });

  it("hemianopia loses the patient's left half-field: nasal for a right eye, temporal for a left eye", () => {
    const right = make("hemianopia", 1, Eye.Right),
      left = make("hemianopia", 1, Eye.Left);
    p24.points.forEach((pt, i) => {
      if (Math.hypot(pt.x, pt.y) <= 2 || p24.blindSpotIndices.includes(i)) return;
      expect(right.trueThresholds[i]! < 0).toBe(pt.x < 0);
      expect(left.trueThresholds[i]! < 0).toBe(pt.x > 0);
    });
  });

  it("never sees the blind-spot catch stimulus while fixating unless pressing at random (false positive rate)", () => {
    const p = make("healthy", 3);
    const fixating = { distance: 0.5, lost: false };
    const seen = Array.from({ length: 2000 }, () => p.respondAtBlindSpot(10, fixating).seen).filter(Boolean).length / 2000;
    expect(seen).toBeLessThan(0.06);
    const lost = { distance: 8, lost: true };
    const seenLost = Array.from({ length: 200 }, () => p.respondAtBlindSpot(10, lost).seen).filter(Boolean).length / 200;
    expect(seenLost).toBeGreaterThan(0.9);
  });

  it("responds more slowly near threshold (McKendrick et al. 2014)", () => {
    const p = make("healthy", 4);
    const fixating = { distance: 0.5, lost: false };
    const t = p.trueThresholds[0]!;
    const times = (level: number) =>
      Array.from({ length: 3000 }, () => p.respondAt(0, level, fixating)).flatMap((r) =>
        r.seen && r.responseTime !== null ? [r.responseTime] : [],
      );
    expect(mean(times(Math.round(t)))).toBeGreaterThan(mean(times(Math.max(0, Math.round(t) - 15))) + 100);
  });

  it("the unreliable responder presses at random far more often", () => {
    const rate = (name: keyof typeof PROFILES) => {
      const p = make(name, 5);
      return Array.from({ length: 2000 }, () => p.respondToNothing().seen).filter(Boolean).length / 2000;
    };
    expect(rate("unreliable")).toBeGreaterThan(0.15);
    expect(rate("healthy")).toBeLessThan(0.06);
  });

  it("binocular (Esterman): a healthy pair of eyes sees the 10 dB stimulus everywhere", () => {
    const p = make("healthy", 6, Eye.Binocular, getPattern(Pattern.Esterman));
    expect(Math.min(...p.trueThresholds)).toBeGreaterThan(14);
  });
});
