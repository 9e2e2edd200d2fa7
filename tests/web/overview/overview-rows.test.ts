import { describe, expect, it } from "vitest";
import { Eye, Pattern, Strategy } from "../../../core/model/enums.ts";
import { overviewRows } from "../../../web/pages/patient/overview-rows.ts";
import { acuity, amsler, colour, examination, measurement } from "./fixtures.ts";

// The overview's recent-tests rows: every taken test of both variants, newest first, with its summary and link.

describe("overview rows", () => {
  const measurements = [
    measurement("m1", "2026-01-05T09:00:00.000Z"),
    measurement("m2", null), // waiting: not taken
    measurement("m3", "2026-01-20T09:00:00.000Z", { trashedAt: "2026-01-21T00:00:00.000Z" }), // in the bin
  ];
  const examinations = [
    examination("e-amsler", "amsler", Eye.Left, amsler("2026-02-01T10:00:00.000Z", "missing")),
    examination("e-acuity", "acuity", Eye.Right, acuity("2026-02-01T10:05:00.000Z", [[Eye.Right, 0.3]])),
    examination("e-colour", "color-blindness", Eye.Binocular, colour("2026-02-01T10:10:00.000Z", 7, "deutan")),
    examination("e-peri", "perimetry", Eye.Right, {
      ...measurement("e-peri", "2026-01-10T09:00:00.000Z", { eye: Eye.Left, meanDefect: null }).result!,
    }),
    examination("e-wait", "acuity", Eye.Left, null), // not taken
  ];

  it("lists every taken test of both lists, newest first; waiting and trashed ones are left out", () => {
    expect(overviewRows(measurements, examinations).map((r) => r.key)).toEqual([
      "e:e-colour",
      "e:e-acuity",
      "e:e-amsler",
      "e:e-peri",
      "m:m1",
    ]);
  });

  it("summarises each type: perimetry pattern, strategy, MD; Amsler answer; acuity logMAR with Snellen; colour plates and class", () => {
    const rows = Object.fromEntries(overviewRows(measurements, examinations).map((r) => [r.key, r]));
    expect(rows["m:m1"]).toMatchObject({
      type: "perimetry",
      eye: Eye.Right,
      summary: { kind: "perimetry", pattern: Pattern.P24_2, result: { strategy: Strategy.SORS }, meanDefect: -3.456 },
    });
    // A perimetry examination's eye is its result's (an examination for both eyes is stored per eye).
    expect(rows["e:e-peri"]).toMatchObject({ type: "perimetry", eye: Eye.Left, summary: { kind: "perimetry", meanDefect: null } });
    expect(rows["e:e-amsler"]).toMatchObject({ type: "amsler", eye: Eye.Left, summary: { kind: "amsler", answer: "missing" } });
    expect(rows["e:e-acuity"]!.summary).toEqual({
      kind: "acuity",
      chart: "etdrs",
      eyes: [{ eye: Eye.Right, logMAR: 0.3, metres: "6/12", feet: "20/40", decimal: 0.5 }],
    });
    expect(rows["e:e-colour"]).toMatchObject({
      type: "color-blindness",
      eye: Eye.Binocular,
      summary: { kind: "colour", platesCorrect: 7, platesPresented: 19, classification: "deutan" },
    });
  });

  it("links perimetry to its page (measurement or examination), Amsler to the Amsler grid, acuity and colour nowhere", () => {
    const links = Object.fromEntries(overviewRows(measurements, examinations).map((r) => [r.key, r.link]));
    expect(links).toEqual({
      "m:m1": "../perimetry/m1?scrollToMeasurement=1",
      "e:e-peri": "../perimetry/e-peri?scrollToMeasurement=1",
      "e:e-amsler": "../amsler-grid",
      "e:e-acuity": null,
      "e:e-colour": null,
    });
  });

  it("a taken examination whose result was not kept (taken before results were modelled) still lists, without a summary", () => {
    const old = examination("e-old", "color-blindness", Eye.Binocular, null, { taken: true, updatedAt: "2025-06-01T10:00:00.000Z" });
    expect(overviewRows([], [old])).toEqual([
      {
        key: "e:e-old",
        id: "e-old",
        takenAt: "2025-06-01T10:00:00.000Z",
        type: "color-blindness",
        eye: Eye.Binocular,
        summary: { kind: "none" },
        link: null,
      },
    ]);
  });

  it("an acuity result for both eyes keeps each eye's notation", () => {
    const both = examination(
      "e-both",
      "acuity",
      Eye.Both,
      acuity("2026-03-01T10:00:00.000Z", [
        [Eye.Right, 0],
        [Eye.Left, 1],
      ]),
    );
    const [row] = overviewRows([], [both]);
    expect(row!.summary).toMatchObject({
      eyes: [
        { eye: Eye.Right, metres: "6/6", feet: "20/20" },
        { eye: Eye.Left, metres: "6/60", feet: "20/200" },
      ],
    });
  });
});
