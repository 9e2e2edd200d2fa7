import dcmjs from "dcmjs";
import dicomParser from "dicom-parser";

// A DICOM Part 10 file as the naturalized dataset core/import reads (keyword -> value, a sequence an array of datasets),
// parsed with dicom-parser: a clinic's history is tens of thousands of files, and dcmjs's reader spends about 6 ms on
// an OPV's nested point sequences where dicom-parser spends a tenth of that (bench:import). Keywords and the VRs of
// implicit-VR files come from dcmjs's dictionary (data only). Private elements and binary values (OB, OW, UN) are left
// out: the OPV reader reads the standard's attributes and nothing else. Explicit and implicit little endian, deflated
// (node's zlib, inside dicom-parser) and explicit big endian are read; strings in the file's character set (decoderFor).

interface Entry {
  readonly name: string;
  readonly vr: string;
}

let dictionary: Map<string, Entry> | undefined;
/** "x00100010" -> {PatientName, PN}, built once from dcmjs's keyword map ("(0010,0010)" tags). */
function entries(): Map<string, Entry> {
  if (dictionary) return dictionary;
  dictionary = new Map();
  const byName = (dcmjs.data.DicomMetaDictionary as unknown as { nameMap: Record<string, { tag?: string; vr?: string }> }).nameMap;
  for (const [name, e] of Object.entries(byName)) {
    const m = /^\(([0-9A-Fa-f]{4}),([0-9A-Fa-f]{4})\)$/.exec(e.tag ?? "");
    if (m) dictionary.set(`x${m[1]}${m[2]}`.toLowerCase(), { name, vr: (e.vr ?? "UN").slice(0, 2) });
  }
  return dictionary;
}

const numericStrings = new Set(["DS", "IS"]);
/** Texts that are one value whatever backslashes they hold. */
const singleTexts = new Set(["LT", "ST", "UT", "UR"]);
const binary = new Set(["OB", "OW", "OF", "OD", "OL", "OV", "UN", "AT"]);
/** Bytes per value and how to read one at an offset (the dataset's byte order), without looking the element up again. */
const numberReaders: Record<string, [number, (p: dicomParser.ByteArrayParser, bytes: dicomParser.ByteArray, at: number) => number]> = {
  US: [2, (p, b, at) => p.readUint16(b, at)],
  SS: [2, (p, b, at) => p.readInt16(b, at)],
  UL: [4, (p, b, at) => p.readUint32(b, at)],
  SL: [4, (p, b, at) => p.readInt32(b, at)],
  FL: [4, (p, b, at) => p.readFloat(b, at)],
  FD: [8, (p, b, at) => p.readDouble(b, at)],
};

/**
 * A value's text without its padding (trailing spaces and NULs, leading spaces): byte by byte when it is ASCII (nearly
 * every value: codes, numbers, UIDs, dates), else decoded.
 */
function textOf(bytes: dicomParser.ByteArray, start: number, end: number, decoder: TextDecoder): string {
  while (end > start && (bytes[end - 1] === 0x20 || bytes[end - 1] === 0)) end--;
  while (start < end && bytes[start] === 0x20) start++;
  let text = "";
  for (let i = start; i < end; i++) {
    const b = bytes[i]!;
    if (b > 0x7f) return decoder.decode(bytes.subarray(start, end));
    text += String.fromCharCode(b);
  }
  return text;
}

/**
 * Specific Character Set (0008,0005) single-byte and Unicode terms (PS3.3 C.12.1.1.2) and the WHATWG encodings that
 * decode them. Without one the default repertoire is ASCII, read as Latin-1. ISO 2022 code extensions (ISO 2022 IR
 * ..., used for Japanese and Korean) are read by their first term's single-byte set: the escape sequences are not
 * interpreted (docs/dicom-conformance.md says so).
 */
const encodings: Record<string, string> = {
  "ISO_IR 192": "utf-8",
  GB18030: "gb18030",
  GBK: "gbk",
  "ISO_IR 100": "latin1",
  "ISO_IR 101": "iso-8859-2",
  "ISO_IR 109": "iso-8859-3",
  "ISO_IR 110": "iso-8859-4",
  "ISO_IR 144": "iso-8859-5",
  "ISO_IR 127": "iso-8859-6",
  "ISO_IR 126": "iso-8859-7",
  "ISO_IR 138": "iso-8859-8",
  "ISO_IR 148": "iso-8859-9",
  "ISO_IR 203": "iso-8859-15",
  "ISO_IR 166": "windows-874",
  "ISO_IR 13": "shift_jis",
};
const decoders = new Map<string, TextDecoder>();
/** The decoder of a dataset's strings, from its Specific Character Set (the first value; ISO 2022's "ISO 2022 IR n" as "ISO_IR n"). */
export function decoderFor(charset: string | undefined): TextDecoder {
  const first = (charset ?? "").split("\\").find((t) => t.trim() !== "") ?? "";
  const term = first
    .trim()
    .toUpperCase()
    .replace(/^ISO 2022 IR /, "ISO_IR ");
  const encoding = encodings[term] ?? "latin1";
  let decoder = decoders.get(encoding);
  if (!decoder) decoders.set(encoding, (decoder = new TextDecoder(encoding)));
  return decoder;
}

const latin1Text = (ds: dicomParser.DataSet, el: dicomParser.Element) =>
  decoderFor(undefined).decode(ds.byteArray.subarray(el.dataOffset, el.dataOffset + el.length));

function naturalize(ds: dicomParser.DataSet, decoder: TextDecoder): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const dict = entries();
  for (const tag in ds.elements) {
    const el = ds.elements[tag]!;
    const entry = dict.get(tag);
    if (!entry) continue; // private or unknown
    if (el.items) {
      out[entry.name] = el.items.map((item) => (item.dataSet ? naturalize(item.dataSet, decoder) : {}));
      continue;
    }
    const vr = el.vr ?? entry.vr;
    if (vr === "SQ" || binary.has(vr) || el.length === 0) continue;
    const reader = numberReaders[vr];
    if (reader) {
      const [size, read] = reader;
      const n = Math.floor(el.length / size);
      if (n === 1) out[entry.name] = read(ds.byteArrayParser, ds.byteArray, el.dataOffset);
      else {
        const values: number[] = [];
        for (let i = 0; i < n; i++) values.push(read(ds.byteArrayParser, ds.byteArray, el.dataOffset + i * size));
        out[entry.name] = values;
      }
      continue;
    }
    const text = textOf(ds.byteArray, el.dataOffset, el.dataOffset + el.length, decoder);
    const parts = singleTexts.has(vr) || !text.includes("\\") ? [text] : text.split("\\").map((p) => p.trim());
    const values = numericStrings.has(vr) ? parts.map((p) => (p === "" ? Number.NaN : Number(p))) : parts;
    out[entry.name] = values.length === 1 ? values[0] : values;
  }
  return out;
}

/** The dataset (meta group included) of a Part 10 file; throws naming what is wrong when it cannot be read. */
export function readPart10(bytes: Uint8Array): Record<string, unknown> {
  let ds: dicomParser.DataSet;
  try {
    ds = dicomParser.parseDicom(bytes);
  } catch (e) {
    // dicom-parser throws strings as well as Errors; a half-read dataset comes with the exception.
    const message = typeof e === "string" ? e : e instanceof Error ? e.message : ((e as { exception?: string }).exception ?? String(e));
    throw new Error(message.replace(/^dicomParser\.\w+: /, ""));
  }
  const charset = ds.elements.x00080005 ? latin1Text(ds, ds.elements.x00080005) : undefined;
  return naturalize(ds, decoderFor(charset));
}

/** The SOP Instance UID of a Part 10 file, read from as much of it as is given (its head suffices); null when absent. */
export function sopInstanceUidOf(head: Uint8Array): string | null {
  if (head.length < 132 || String.fromCharCode(...head.subarray(128, 132)) !== "DICM") return null;
  try {
    const ds = dicomParser.parseDicom(head, { untilTag: "x00080018" });
    return ds.string("x00080018")?.replace(/\0+$/, "").trim() || null;
  } catch {
    return null;
  }
}
