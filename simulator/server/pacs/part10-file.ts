// A dataset received by C-STORE (its bytes as they came, in the presentation context's transfer syntax) as the DICOM
// Part 10 file results/import reads (PS3.10 7.1: a 128-byte preamble, "DICM", the File Meta Information in explicit
// VR little endian, then the dataset untouched). Nothing of the dataset is decoded and encoded again, so the import
// reads what the PACS sent, byte for byte.

/** Isopter's implementation class UID in the files it makes of received instances (a UUID under 2.25, PS3.5 B.2). */
export const IMPLEMENTATION_CLASS_UID = "2.25.278795539831225657276677943996180920971";
const IMPLEMENTATION_VERSION = "ISOPTER_PACS_1";

/** A UI or SH value padded to even length (UIDs with NUL, texts with a space). */
const even = (value: string, pad: string) => Buffer.from(value.length % 2 === 0 ? value : value + pad, "latin1");

/** One explicit VR little endian element of group 0002 with a short (2-byte) length. */
function shortElement(element: number, vr: string, value: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt16LE(0x0002, 0);
  head.writeUInt16LE(element, 2);
  head.write(vr, 4, "latin1");
  head.writeUInt16LE(value.length, 6);
  return Buffer.concat([head, value]);
}

/** OB has a reserved word and a 4-byte length. */
function obElement(element: number, value: Buffer): Buffer {
  const head = Buffer.alloc(12);
  head.writeUInt16LE(0x0002, 0);
  head.writeUInt16LE(element, 2);
  head.write("OB", 4, "latin1");
  head.writeUInt32LE(value.length, 8);
  return Buffer.concat([head, value]);
}

export function part10File(dataset: Buffer, sopClassUid: string, sopInstanceUid: string, transferSyntaxUid: string): Buffer {
  const meta = Buffer.concat([
    obElement(0x0001, Buffer.from([0x00, 0x01])),
    shortElement(0x0002, "UI", even(sopClassUid, "\0")),
    shortElement(0x0003, "UI", even(sopInstanceUid, "\0")),
    shortElement(0x0010, "UI", even(transferSyntaxUid, "\0")),
    shortElement(0x0012, "UI", even(IMPLEMENTATION_CLASS_UID, "\0")),
    shortElement(0x0013, "SH", even(IMPLEMENTATION_VERSION, " ")),
  ]);
  const groupLength = Buffer.alloc(4);
  groupLength.writeUInt32LE(meta.length, 0);
  return Buffer.concat([Buffer.alloc(128), Buffer.from("DICM", "latin1"), shortElement(0x0000, "UL", groupLength), meta, dataset]);
}
