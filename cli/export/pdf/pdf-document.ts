import { deflateSync } from "node:zlib";

// A minimal PDF 1.4 writer: pages of content-stream operators (Flate-compressed), the standard fonts Helvetica and
// Helvetica-Bold (WinAnsiEncoding, not embedded: every reader has them), an Info dictionary and the cross-reference
// table. Enough for reports drawn from core/plots scenes; no images, no font embedding.

export interface PdfPage {
  readonly width: number;
  readonly height: number;
  /** Content stream operators (ASCII). */
  readonly content: string;
}

export interface PdfInfo {
  readonly title?: string;
  readonly subject?: string;
  readonly creationDate?: Date;
}

/** A PDF text string in UTF-16BE with BOM, as hex: any language's characters, nothing to escape. */
function textString(s: string): string {
  let hex = "FEFF";
  for (let i = 0; i < s.length; i++) hex += s.charCodeAt(i).toString(16).padStart(4, "0").toUpperCase();
  return `<${hex}>`;
}

const pdfDate = (d: Date) => `D:${d.toISOString().replace(/[-:T]/g, "").slice(0, 14)}Z`;

export function pdfDocument(pages: readonly PdfPage[], info: PdfInfo = {}): Buffer {
  const chunks: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (b: Buffer) => {
    chunks.push(b);
    length += b.length;
  };
  const object = (id: number, body: Buffer | string) => {
    offsets[id] = length;
    push(Buffer.from(`${id} 0 obj\n`, "latin1"));
    push(typeof body === "string" ? Buffer.from(body, "latin1") : body);
    push(Buffer.from("\nendobj\n", "latin1"));
  };
  const stream = (id: number, data: Buffer) => {
    offsets[id] = length;
    push(Buffer.from(`${id} 0 obj\n<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n`, "latin1"));
    push(data);
    push(Buffer.from("\nendstream\nendobj\n", "latin1"));
  };

  // 1 catalog, 2 page tree, 3 and 4 fonts, 5 info, then a page and its content stream per page.
  const pageIds = pages.map((_, i) => 6 + 2 * i);
  push(Buffer.from("%PDF-1.4\n%\xE2\xE3\xCF\xD3\n", "latin1"));
  object(1, "<< /Type /Catalog /Pages 2 0 R >>");
  object(2, `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages.length} >>`);
  object(3, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  object(4, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>");
  const infoEntries = [
    "/Producer (Isopter CLI)",
    info.title !== undefined ? `/Title ${textString(info.title)}` : "",
    info.subject !== undefined ? `/Subject ${textString(info.subject)}` : "",
    `/CreationDate (${pdfDate(info.creationDate ?? new Date())})`,
  ].filter(Boolean);
  object(5, `<< ${infoEntries.join(" ")} >>`);
  pages.forEach((page, i) => {
    const id = pageIds[i]!;
    object(
      id,
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${page.width} ${page.height}] ` +
        `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${id + 1} 0 R >>`,
    );
    stream(id + 1, deflateSync(Buffer.from(page.content, "latin1")));
  });
  const count = 6 + 2 * pages.length;
  const xrefAt = length;
  let xref = `xref\n0 ${count}\n0000000000 65535 f \n`;
  for (let id = 1; id < count; id++) xref += `${String(offsets[id]).padStart(10, "0")} 00000 n \n`;
  push(Buffer.from(`${xref}trailer\n<< /Size ${count} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`, "latin1"));
  return Buffer.concat(chunks);
}
