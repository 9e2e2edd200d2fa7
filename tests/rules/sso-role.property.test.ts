import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { claimValues, grantedRole } from "../../core/rules/sso-role.ts";

// Which role an identity provider's claim grants (issue 33 item 1): the highest role any of its values maps to, none
// when no value is mapped; a claim that is one string counts as that value, anything but strings as none.

const map = { user: ["staff"], manager: ["leads"], admin: ["it-admins"] };
const value = fc.constantFrom("staff", "leads", "it-admins", "visitors", "Staff", "");

describe("grantedRole", () => {
  it("grants the highest role any value maps to", () => {
    expect(grantedRole(map, ["staff", "leads"])).toBe("manager");
    expect(grantedRole(map, ["it-admins", "staff"])).toBe("admin");
    expect(grantedRole(map, "staff")).toBe("user");
  });

  it("grants none for unmapped, differently cased, missing or non-string values", () => {
    expect(grantedRole(map, ["visitors", "Staff"])).toBeNull();
    expect(grantedRole(map, undefined)).toBeNull();
    expect(grantedRole(map, [42, { staff: true }])).toBeNull();
    expect(claimValues(7)).toEqual([]);
  });

  it("property: adding values never lowers the role; the order of values does not matter", () => {
    const rank = (r: string | null) => (r === null ? 0 : ["user", "manager", "admin"].indexOf(r) + 1);
    fc.assert(
      fc.property(fc.array(value), fc.array(value), (a, b) => {
        expect(rank(grantedRole(map, [...a, ...b]))).toBeGreaterThanOrEqual(rank(grantedRole(map, a)));
        expect(grantedRole(map, [...a].reverse())).toBe(grantedRole(map, a));
      }),
    );
  });

  it("property: a role is granted exactly when some value is mapped", () => {
    fc.assert(
      fc.property(fc.array(value), (values) => {
        const mapped = values.some((v) => [...map.user, ...map.manager, ...map.admin].includes(v));
        expect(grantedRole(map, values) !== null).toBe(mapped);
      }),
    );
  });
});
