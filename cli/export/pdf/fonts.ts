import { existsSync } from "node:fs";

// The fonts a printed page embeds: DejaVu Sans (Latin, Turkish, Greek, Cyrillic; regular and bold) and, for what it
// lacks (Chinese), WenQuanYi Micro Hei. Debian's fonts-dejavu-core and fonts-wqy-microhei (scripts/system-deps.sh)
// install them; pdfkit embeds the glyphs used, so the PDF reads the same on any machine.

export interface PageFonts {
  readonly regular: string;
  readonly bold: string;
  /** A TrueType collection and the face in it. */
  readonly fallback: { readonly file: string; readonly face: string };
}

const candidates = {
  regular: ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"],
  bold: ["/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"],
  fallback: ["/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"],
};

export class MissingFontError extends Error {
  override readonly name = "MissingFontError";
}

export function pageFonts(env: Readonly<Record<string, string | undefined>> = process.env): PageFonts {
  const find = (kind: keyof typeof candidates, override?: string) => {
    const found = [override, ...candidates[kind]].find((f) => f !== undefined && existsSync(f));
    if (!found)
      throw new MissingFontError(
        `no ${kind} font for the PDF (looked for ${candidates[kind].join(", ")}): install fonts-dejavu-core and fonts-wqy-microhei (bash scripts/system-deps.sh)`,
      );
    return found;
  };
  return {
    regular: find("regular", env.ISOPTER_PDF_FONT),
    bold: find("bold", env.ISOPTER_PDF_FONT_BOLD),
    fallback: { file: find("fallback", env.ISOPTER_PDF_FONT_FALLBACK), face: "WenQuanYiMicroHei" },
  };
}
