import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Eye, TestType } from "../../../core/model/enums.ts";
import type { Variant } from "../../../core/rules/form-context.ts";
import { examinationPayloads, newTemplateTest, perimetryBodies } from "../../../web/pages/templates/template-tests.ts";
import { login, ok, startTestServer, type TestServer } from "../../server/harness.ts";

// What the templates page sends, against the real server (embedded PostgreSQL): a template built from the core/rules
// defaults is accepted by template/create, and scheduling it is accepted by perimetry/register and by
// appointment/register_with_examinations.

describe("templates page calls against the server", () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer("pglite");
    token = await login(server.url, "manager");
  }, 180_000);
  afterAll(async () => {
    await server?.drop();
  });

  const scheduleTarget = async () => {
    const patient = await ok(
      server.url,
      "patient.register",
      { body: { name: "Ada Lovelace", uniqueId: `U-${Date.now()}`, gender: 0, lang: "en", birthdate: "1960-05-05" } },
      token,
    );
    const [device] = await ok(server.url, "device.all", {}, token);
    return { patient, deviceSn: device!.deviceSn };
  };
  const organisationVariant = async (): Promise<Variant> =>
    (await ok(server.url, "organisation.current", {}, token)).multiTests ? "newer" : "older";

  it("creates a template from the defaults and registers its perimetry tests in order", async () => {
    const variant = await organisationVariant();
    const tests = [
      newTemplateTest(TestType.Perimetry, variant),
      newTemplateTest(TestType.Amsler, variant),
      { ...newTemplateTest(TestType.Perimetry, variant), eye: Eye.Left },
    ];
    const template = await ok(server.url, "template.create", { body: { name: "Glaucoma check", tests } }, token);
    expect(template.tests).toEqual(tests);
    const target = await scheduleTarget();
    const created = [];
    for (const body of perimetryBodies(template.tests, target, variant))
      created.push(...(await ok(server.url, "perimetry.register", { body }, token)));
    // "eye Both creates a right and a left measurement" (contract): the first test gives two, the second one.
    expect(created.map((m) => m.eye)).toEqual([Eye.Right, Eye.Left, Eye.Left]);
    expect(created.every((m) => m.displayName === "Test Ada Lovelace" && m.deviceSn === target.deviceSn)).toBe(true);
  });

  it("registers an appointment holding every test of the template", async () => {
    const tests = [newTemplateTest(TestType.Perimetry, "newer"), newTemplateTest(TestType.Amsler, "newer")];
    const target = await scheduleTarget();
    const appointment = await ok(
      server.url,
      "appointment.registerWithExaminations",
      {
        body: {
          patientId: target.patient.id,
          deviceSn: target.deviceSn,
          standaloneId: null,
          tutorial: false,
          audioGuide: true,
          trackGaze: true,
          examinations: examinationPayloads(tests, target, "newer"),
        },
      },
      token,
    );
    expect(appointment.patientId).toBe(target.patient.id);
  });
});
