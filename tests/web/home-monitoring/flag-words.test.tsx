// @vitest-environment happy-dom
import { describe, expect, it, vi } from "vitest";
import { renderHook } from "@testing-library/react";

vi.mock("@lingui/core/macro", () => import("../lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("../lingui-shim.tsx"));

import type { FlagReason } from "../../../core/home/triage.ts";
import { useFlagNames, useReasonWords } from "../../../web/pages/review/flag-words.ts";

// The review queue's reasons in words (issue 31 §2): each names what it measured against which limit, in figures.

const words = () => renderHook(() => useReasonWords()).result.current;

describe("review flags in words", () => {
  it("names each flag kind", () => {
    expect(renderHook(() => useFlagNames()).result.current).toEqual({
      unreliable: "Unreliable",
      outlier: "Outlier",
      progression: "Progression",
      missed: "Missed sessions",
    });
  });

  it.each<[FlagReason, string]>([
    [{ code: "false-positives", rate: 5 / 8, limit: 0.15 }, "False positives 63 % (limit 15 %)"],
    [{ code: "fixation-losses", rate: 0.3, limit: 0.2 }, "Fixation losses 30 % (limit 20 %)"],
    [{ code: "gaze-lost", share: 0.45, limit: 0.2, samples: 120 }, "Gaze lost 45 % of 120 samples (limit 20 %)"],
    [
      { code: "md-from-median", md: -7.5, median: -1.25, difference: -6.25, limit: 3, results: 3 },
      "MD -7.50 dB against a median of -1.25 dB over the last 3 results (-6.25 dB, limit 3.00 dB)",
    ],
    [{ code: "new-cluster", locations: [4, 5, 12] }, "New cluster of 3 defective locations"],
    [
      { code: "progression-event", status: "likely progression", previous: "possible progression" },
      "Event analysis: Likely progression (before: Possible progression)",
    ],
    [{ code: "missed-sessions", sessions: 3 }, "3 sessions missed in a row"],
    [{ code: "missed-sessions", sessions: 1 }, "One session missed"],
  ])("%o reads %s", (reason, sentence) => {
    expect(words()(reason)).toBe(sentence);
  });

  it("names the criterion that turned to worsening and what it said before", () => {
    const sentence = words()({ code: "criterion-worsening", method: "schell-2014", previous: "stable" });
    expect(sentence).toMatch(/^Schell.* turned to worsening \(before: stable\)$/);
  });
});
