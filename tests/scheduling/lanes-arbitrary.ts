import fc from "fast-check";
import type { Card, Lane } from "../../core/scheduling/index.ts";

/**
 * Lanes of cards for the drag properties: each lane a few units, a unit one card or an other-eye pair (the second
 * card follows the first), maybe running. Ids are unique across lanes.
 */
export const lanesArbitrary = (minLanes: number) =>
  fc
    .array(fc.record({ units: fc.array(fc.boolean(), { maxLength: 5 }), running: fc.boolean() }), { minLength: minLanes, maxLength: 4 })
    .map((specs) => {
      let n = 0;
      return specs.map((spec, li): Lane => {
        const items: Card[] = [];
        for (const paired of spec.units) {
          const first = `c${n++}`;
          items.push({ id: first, isFollowingEye: null });
          if (paired) items.push({ id: `c${n++}`, isFollowingEye: first });
        }
        return { deviceId: `D${li}`, revision: li, running: spec.running && items.length > 0, items };
      });
    });
