import { readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
// faq.ts describes its texts with the Lingui macro, which vitest runs without (tests/web/lingui-shim.tsx).
vi.mock("@lingui/core/macro", () => import("../lingui-shim.tsx"));

import { Languages } from "../../../core/model/enums.ts";
import { faq } from "../../../web/pages/support/faq.ts";
import { helpPictures, helpPictureUrl } from "../../../web/pages/support/help-pictures.ts";

// "Videos and images illustrate them" (accounts seed §2): every pictured topic is a help-centre question, and its
// picture exists in every interface language (scripts/help-pictures.ts takes them; web/public is served as is).

const file = (url: string) => new URL(`../../../web/public${url}`, import.meta.url);

describe("help pictures", () => {
  it("each pictured topic is one of the help centre's questions", () => {
    const ids = new Set(faq.map((f) => f.id));
    for (const topic of helpPictures) expect(ids.has(topic), topic).toBe(true);
  });

  it("each picture is a JPEG in every one of the ten interface languages", () => {
    for (const language of Languages) {
      for (const topic of helpPictures) {
        const bytes = readFileSync(file(helpPictureUrl(language, topic)));
        expect([bytes[0], bytes[1], bytes[2]], `${language}/${topic}`).toEqual([0xff, 0xd8, 0xff]);
      }
    }
  });
});
