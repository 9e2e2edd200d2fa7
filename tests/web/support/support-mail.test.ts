import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { pageForSupport, supportMailto } from "../../../web/pages/support/support-mail.ts";

// The support widget's e-mail (issue 21 §7: "a message form that composes a support e-mail").

const decode = (href: string) => {
  const url = new URL(href);
  return { to: url.pathname, subject: url.searchParams.get("subject"), body: url.searchParams.get("body") };
};

describe("supportMailto", () => {
  it("addresses support with the subject and the message, and the technical details under it", () => {
    const href = supportMailto({
      to: "support@isopter.example",
      subject: " Headset Room 2 ",
      message: "It shows disconnected.\nSince 9:00.",
      details: { version: "0.1.0", page: "/technician", role: "user", language: "de" },
    });
    expect(decode(href)).toEqual({
      to: "support@isopter.example",
      subject: "Headset Room 2",
      body: "It shows disconnected.\nSince 9:00.\r\n\r\n--\r\nIsopter 0.1.0\r\nPage: /technician\r\nRole: user\r\nLanguage: de",
    });
  });

  it("any subject and message come back whole from the link (nothing breaks out of the query: & ? # = %)", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (subject, message) => {
        const out = decode(supportMailto({ to: "support@isopter.example", subject, message, details: null }));
        expect(out.subject).toBe(subject.trim());
        expect(out.body).toBe(message.trim());
      }),
    );
  });

  it("the page is named without record ids, which could point at a patient", () => {
    expect(pageForSupport("/patient/915619c7-105a-4182-8b99-65c2caebc559/perimetry/bb813efd-f3c1-446b-a10b-127c4118d35b")).toBe(
      "/patient/{id}/perimetry/{id}",
    );
    expect(pageForSupport("/technician")).toBe("/technician");
  });
});
