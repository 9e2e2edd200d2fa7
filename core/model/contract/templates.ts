import { Schema } from "effect";
import { TemplateFieldsSchema, TemplateSchema } from "../template.ts";
import { commonErrors, endpoint } from "./endpoint.ts";
import { Deleted, IdQuery } from "./shared.ts";

// Template calls: entirely our design. The seeds show a stubbed templates page (list, create, copy, delete, edit);
// issue #4 asks for templates as a real feature.

const ours = "our design: the seeds' templates page is a local stub with no calls";

export const templateAll = endpoint({
  name: "template.all",
  method: "GET",
  path: "template/all",
  response: Schema.Array(TemplateSchema),
  errors: commonErrors,
  auth: "bearer",
  carriesAccessToken: true,
  source: "our design",
  ourDesign: ours,
});

export const templateCreate = endpoint({
  name: "template.create",
  method: "POST",
  path: "template/create",
  body: TemplateFieldsSchema,
  response: TemplateSchema,
  errors: commonErrors,
  auth: "bearer",
  carriesAccessToken: true,
  source: "our design",
  ourDesign: ours,
});

export const templateUpdate = endpoint({
  name: "template.update",
  method: "PATCH",
  path: "template/update",
  query: IdQuery,
  body: TemplateFieldsSchema,
  response: TemplateSchema,
  errors: [...commonErrors, "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "our design",
  ourDesign: ours,
});

export const templateCopy = endpoint({
  name: "template.copy",
  method: "POST",
  path: "template/copy",
  query: IdQuery,
  response: TemplateSchema,
  errors: [...commonErrors, "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "our design",
  ourDesign: `${ours}; the copy is named "<name> (copy)"`,
});

export const templateDelete = endpoint({
  name: "template.delete",
  method: "DELETE",
  path: "template/delete",
  query: IdQuery,
  response: Deleted,
  errors: [...commonErrors, "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "our design",
  ourDesign: ours,
});
