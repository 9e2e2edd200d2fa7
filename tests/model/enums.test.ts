import { describe, expect, it } from "vitest";
import { CacheKey, Languages, PatientLanguages, SwitcherLanguages } from "../../core/model/enums.ts";

describe("enumerations added with the model", () => {
  it('"the patient language list has eight entries" and all are interface language codes', () => {
    expect(PatientLanguages).toHaveLength(8);
    for (const l of PatientLanguages) expect(Languages).toContain(l);
  });

  it('"The language switcher lists English, German, French, Italian, Spanish, Portuguese, Dutch and Turkish"', () => {
    expect(SwitcherLanguages).toEqual(["en", "de", "fr", "it", "es", "bp", "nl", "tr"]);
  });

  it("the seed's thirteen client cache keys, each distinct", () => {
    const keys = Object.values(CacheKey);
    expect(keys).toHaveLength(13);
    expect(new Set(keys).size).toBe(13);
  });
});
