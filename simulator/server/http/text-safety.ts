// PostgreSQL stores neither NUL characters nor unpaired UTF-16 surrogates (in text or jsonb); a request carrying one
// would fail inside the database. The router refuses such input up front with 400 naming the field.

// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is the character PostgreSQL cannot store; matching it is the point
const unsafe = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Dotted path of the first string (or object key) PostgreSQL cannot store, or undefined. */
export const unstorableText = (value: unknown, path: string): string | undefined => {
  if (typeof value === "string") return unsafe.test(value) ? path : undefined;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const bad = unstorableText(v, `${path}.${i}`);
      if (bad) return bad;
    }
    return undefined;
  }
  if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (unsafe.test(k)) return `${path}.${k}`;
      const bad = unstorableText(v, `${path}.${k}`);
      if (bad) return bad;
    }
  }
  return undefined;
};
