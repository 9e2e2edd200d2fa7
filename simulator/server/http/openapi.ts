import { Schema } from "effect";
import { API_PREFIX, errorStatus, type EndpointSpec } from "../../../core/model/contract/index.ts";

// A machine-readable description of the API (OpenAPI 3.1), generated from the contract: every call's method, path,
// query parameters, body and `data` schema (JSON Schema from effect's Schema.toJsonSchemaDocument), inside the envelope.

type Json = Record<string, unknown>;

const jsonSchema = (schema: EndpointSpec["response"]): Json => {
  const doc = Schema.toJsonSchemaDocument(schema) as unknown as { schema: Json; definitions?: Record<string, Json> };
  const defs = doc.definitions ?? {};
  // Inline the document's definitions under $defs so each schema stands alone.
  return Object.keys(defs).length ? { ...doc.schema, $defs: defs } : doc.schema;
};

const envelope = (data: Json): Json => ({
  type: "object",
  required: ["data"],
  properties: { data, responseType: { type: "string" }, accessToken: { type: "string" } },
});

const failureEnvelope: Json = envelope({
  type: "object",
  required: ["message"],
  properties: { message: { type: "string" }, field: { type: "string", description: "dotted path of the offending field" } },
});

export const openApiDocument = (endpoints: ReadonlyArray<EndpointSpec>, version: string): Json => {
  const paths: Record<string, Json> = {};
  for (const e of endpoints) {
    const query = e.query ? (jsonSchema(e.query) as { properties?: Record<string, Json>; required?: string[] }) : undefined;
    const parameters = Object.entries(query?.properties ?? {}).map(([name, schema]) => ({
      name,
      in: "query",
      required: query?.required?.includes(name) ?? false,
      schema,
    }));
    const statuses = [...new Set(e.errors.map((t) => errorStatus[t]))].sort();
    const operation: Json = {
      operationId: e.name,
      summary: `${e.name} (${e.source})`,
      ...(e.ourDesign ? { description: `Our design: ${e.ourDesign}` } : {}),
      security: e.auth === "none" ? [] : [{ bearer: [] }],
      ...(parameters.length ? { parameters } : {}),
      ...(e.body ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchema(e.body) } } } } : {}),
      responses: {
        "200": { description: "success", content: { "application/json": { schema: envelope(jsonSchema(e.response)) } } },
        ...Object.fromEntries(
          statuses.map((s) => [
            String(s),
            {
              description: e.errors.filter((t) => errorStatus[t] === s).join(", "),
              content: { "application/json": { schema: failureEnvelope } },
            },
          ]),
        ),
      },
      "x-auth": e.auth,
      "x-carries-access-token": e.carriesAccessToken,
    };
    const path = `${API_PREFIX}${e.path}`;
    paths[path] = { ...(paths[path] ?? {}), [e.method.toLowerCase()]: operation };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Isopter clinic API",
      version,
      description: "Envelope: {data, responseType?, accessToken?}. Live socket: /api/ws; headsets: /device.",
    },
    servers: [{ url: "/" }],
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    paths,
  };
};
