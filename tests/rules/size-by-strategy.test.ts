import { describe, expect, it } from "vitest";
import { Pattern, StimulusSize, Strategy } from "../../core/model/enums.ts";
import { sizesFor } from "../../core/rules/size-by-strategy.ts";

const { I, II, III, IV, V, III_ADAPTIVE } = StimulusSize;

// "Esterman gives IV only; C40 and S28 give III only; SORS and SORS screening give III adaptive or III;
//  supra-threshold gives III only; otherwise all six." (scheduling seed §5 "Size by strategy")
describe("size by strategy (scheduling seed §5)", () => {
  it("'Esterman gives IV only'", () => expect(sizesFor(Pattern.Esterman, Strategy.OneLevel)).toEqual([IV]));
  it("'C40 and S28 give III only'", () => {
    expect(sizesFor(Pattern.C40, Strategy.OneLevel)).toEqual([III]);
    expect(sizesFor(Pattern.S28, Strategy.Supra)).toEqual([III]);
  });
  it.each([Pattern.P24_2, Pattern.G])("'SORS and SORS screening give III adaptive or III' (pattern %s)", (p) => {
    expect(sizesFor(p, Strategy.SORS)).toEqual([III_ADAPTIVE, III]);
    expect(sizesFor(p, Strategy.SORS_screening)).toEqual([III_ADAPTIVE, III]);
  });
  it.each([Pattern.P24_2, Pattern.G, Pattern.P10_2, Pattern.P30_2])("'supra-threshold gives III only' (pattern %s)", (p) => {
    expect(sizesFor(p, Strategy.Supra)).toEqual([III]);
  });
  it.each([Pattern.P24_2, Pattern.G, Pattern.P10_2, Pattern.P30_2])("'otherwise all six' for Normal and DS (pattern %s)", (p) => {
    expect(sizesFor(p, Strategy.Normal)).toEqual([I, II, III, IV, V, III_ADAPTIVE]);
    expect(sizesFor(p, Strategy.DS)).toEqual([I, II, III, IV, V, III_ADAPTIVE]);
  });
  it("a strategy the pattern does not allow offers no size", () => {
    expect(sizesFor(Pattern.P10_2, Strategy.SORS)).toEqual([]);
    expect(sizesFor(Pattern.Esterman, Strategy.Supra)).toEqual([]);
    expect(sizesFor(Pattern.Undefined, Strategy.Normal)).toEqual([]);
  });
});
