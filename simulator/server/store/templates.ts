import type { Template, TemplateFields } from "../../../core/model/template.ts";
import type { Queryable, Row } from "../db/database.ts";

const toTemplate = (r: Row): Template => ({
  id: r.id as string,
  name: r.name as string,
  tests: r.tests as Template["tests"],
  createdAt: r.created_at as string,
  updatedAt: r.updated_at as string,
});

export const listTemplates = async (q: Queryable, org: string): Promise<Template[]> =>
  (await q.query("select * from templates where organisation_id = $1 order by lower(name), created_at, id", [org])).map(toTemplate);

export const getTemplate = async (q: Queryable, org: string, id: string): Promise<Template | undefined> => {
  const rows = await q.query("select * from templates where organisation_id = $1 and id = $2", [org, id]);
  return rows[0] ? toTemplate(rows[0]) : undefined;
};

export const insertTemplate = async (q: Queryable, org: string, id: string, f: TemplateFields, now: string) => {
  await q.query("insert into templates (id, organisation_id, name, tests, created_at, updated_at) values ($1, $2, $3, $4, $5, $5)", [
    id,
    org,
    f.name,
    JSON.stringify(f.tests),
    now,
  ]);
};

export const updateTemplate = async (q: Queryable, org: string, id: string, f: TemplateFields, now: string) => {
  await q.query("update templates set name = $3, tests = $4, updated_at = $5 where organisation_id = $1 and id = $2", [
    org,
    id,
    f.name,
    JSON.stringify(f.tests),
    now,
  ]);
};

export const deleteTemplate = async (q: Queryable, org: string, id: string) => {
  await q.query("delete from templates where organisation_id = $1 and id = $2", [org, id]);
};
