import type { TemplateFields } from "../../../core/model/template.ts";
import { TestType } from "../../../core/model/enums.ts";
import { claimsOf, type SomeHandlers } from "../http/handler.ts";
import { invalid, notFound } from "../http/failure.ts";
import { newId } from "../store/ids.ts";
import * as store from "../store/templates.ts";
import { nowIso, write } from "./write.ts";

// Measurement templates (our design: the seeds' templates page is a stub; issue #4 makes them real). A template is a
// named list of tests; the wizard can start from one. Shared within the organisation.

const checked = (f: TemplateFields): TemplateFields => {
  const name = f.name.trim();
  if (name === "") throw invalid("body.name", "This field is required.");
  // Not the text-input rule: a copy is named "<name> (copy)" (contract), and must stay editable.
  if ([...name].length > 100) throw invalid("body.name", "at most 100 characters");
  if (f.tests.length === 0) throw invalid("body.tests", "a template needs at least one test");
  f.tests.forEach((t, i) => {
    if (t.type === TestType.Perimetry && t.config === null)
      throw invalid(`body.tests.${i}.config`, "a perimetry test needs a configuration");
  });
  return { ...f, name };
};

export const templateHandlers: SomeHandlers<"template.all" | "template.create" | "template.update" | "template.copy" | "template.delete"> =
  {
    "template.all": async (call) => ({ data: await store.listTemplates(call.ctx.db, claimsOf(call).organisationId) }),
    "template.create": async (call) => {
      const org = claimsOf(call).organisationId;
      const fields = checked(call.body);
      const id = newId();
      const data = await write(call.ctx, async (tx) => {
        await store.insertTemplate(tx, org, id, fields, nowIso(call.ctx));
        return (await store.getTemplate(tx, org, id))!;
      });
      return { data };
    },
    "template.update": async (call) => {
      const org = claimsOf(call).organisationId;
      const fields = checked(call.body);
      const data = await write(call.ctx, async (tx) => {
        if (!(await store.getTemplate(tx, org, call.query.id))) throw notFound("Template");
        await store.updateTemplate(tx, org, call.query.id, fields, nowIso(call.ctx));
        return (await store.getTemplate(tx, org, call.query.id))!;
      });
      return { data };
    },
    "template.copy": async (call) => {
      const org = claimsOf(call).organisationId;
      const data = await write(call.ctx, async (tx) => {
        const t = await store.getTemplate(tx, org, call.query.id);
        if (!t) throw notFound("Template");
        const id = newId();
        await store.insertTemplate(tx, org, id, { name: `${t.name} (copy)`, tests: t.tests }, nowIso(call.ctx));
        return (await store.getTemplate(tx, org, id))!;
      });
      return { data };
    },
    "template.delete": async (call) => {
      const org = claimsOf(call).organisationId;
      await write(call.ctx, async (tx) => {
        if (!(await store.getTemplate(tx, org, call.query.id))) throw notFound("Template");
        await store.deleteTemplate(tx, org, call.query.id);
      });
      return { data: { id: call.query.id } };
    },
  };
