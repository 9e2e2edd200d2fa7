import { Schema, SchemaTransformation } from "effect";
import { type DeviceStatus, DeviceStatusSchema, deviceStatusOrNotConnected } from "./enums.ts";

// Schemas whose wire form differs from the typed value.

/** A boolean carried in a query string as JSON text ("true" / "false"), e.g. examination/all?taken={json}. */
export const BooleanFromQuerySchema = Schema.Literals(["true", "false"]).pipe(
  Schema.decodeTo(
    Schema.Boolean,
    SchemaTransformation.transform({
      decode: (s: "true" | "false") => s === "true",
      encode: (b: boolean) => (b ? "true" : "false"),
    }),
  ),
);

/**
 * A device status as received: any string; an unknown value decodes to notconnected
 * (scheduling §4: "an unknown value falls back to not connected").
 */
export const DeviceStatusFromWireSchema = Schema.String.pipe(
  Schema.decodeTo(
    DeviceStatusSchema,
    SchemaTransformation.transform<DeviceStatus, string>({
      decode: (s) => deviceStatusOrNotConnected(s),
      encode: (s: DeviceStatus) => s,
    }),
  ),
);
