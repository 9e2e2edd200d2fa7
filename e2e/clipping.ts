import type { Page } from "@playwright/test";

// Clipped or overlapping text, measured in the real browser (issue 21: "no clipped text in any of the ten languages").
// - HTML: an element showing text whose content is wider or taller than its box where the overflow is hidden or
//   ellipsised, or whose text leaves the card or dialog it sits in, or runs under a card's buttons. User data marked
//   data-user-text (display names, patient names) may ellipsise with its full text in a title.
// - Canvas (result plots): every fillText is recorded with its measured box in canvas coordinates; a text reaching
//   outside its canvas is clipped. `recordCanvasText` must run before the page loads.

export interface Clipped {
  readonly where: string;
  readonly text: string;
  readonly why: string;
}

export async function clippedHtml(page: Page, root = "main"): Promise<Clipped[]> {
  return page.evaluate((rootSelector) => {
    const out: Array<{ where: string; text: string; why: string }> = [];
    const name = (el: Element) =>
      el.tagName.toLowerCase() + (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).join(".") : "");
    const roots = [...document.querySelectorAll(rootSelector), ...document.querySelectorAll('[role="dialog"], [role="alertdialog"]')];
    const seen = new Set<Element>();
    for (const r of roots)
      for (const el of r.querySelectorAll("*")) {
        if (seen.has(el)) continue;
        seen.add(el);
        if (el.closest("[data-user-text], svg, canvas, .visually-hidden, option")) continue;
        const text = [...el.childNodes]
          .filter((n) => n.nodeType === 3)
          .map((n) => n.textContent ?? "")
          .join("")
          .trim();
        if (!text) continue;
        const cs = getComputedStyle(el);
        if (cs.display === "none" || cs.visibility === "hidden" || ((el as HTMLElement).offsetParent === null && cs.position !== "fixed"))
          continue;
        const h = el as HTMLElement;
        if (h.scrollWidth > h.clientWidth + 1 && h.clientWidth > 0 && (cs.overflowX !== "visible" || cs.textOverflow === "ellipsis"))
          out.push({ where: name(el), text, why: `content ${h.scrollWidth}px wide in a ${h.clientWidth}px box` });
        if (
          h.scrollHeight > h.clientHeight + 1 &&
          h.clientHeight > 0 &&
          cs.overflowY !== "visible" &&
          cs.overflowY !== "auto" &&
          cs.overflowY !== "scroll"
        )
          out.push({ where: name(el), text, why: `content ${h.scrollHeight}px tall in a ${h.clientHeight}px box` });
        // The text itself (a range over its text nodes) must stay inside its card or dialog.
        const range = document.createRange();
        range.selectNodeContents(el);
        const t = range.getBoundingClientRect();
        const box = el.closest(".mcard, .acard, .modal, .live-panel, .apanel");
        // Text scrolled out of view in a scrolling list or dialog is not clipped: it scrolls into view.
        const scrolls = (n: Element | null): boolean => {
          for (let p = n; p && p !== box?.parentElement; p = p.parentElement) {
            const o = getComputedStyle(p);
            if (/(auto|scroll)/.test(o.overflowX + o.overflowY)) return true;
          }
          return false;
        };
        if (box && box !== el && !scrolls(el.parentElement)) {
          const b = box.getBoundingClientRect();
          if (t.right > b.right + 1 || t.left < b.left - 1 || t.bottom > b.bottom + 1)
            out.push({ where: name(el), text, why: `text leaves its ${name(box)}` });
        }
        // A card's text never runs under its buttons.
        const wrap = el.closest(".mcard-wrap, .acard-wrap");
        const actions = wrap?.querySelector(".mcard-actions, .acard-trash");
        if (actions && !actions.contains(el)) {
          const a = actions.getBoundingClientRect();
          if (t.right > a.left + 1 && t.left < a.right - 1 && t.bottom > a.top + 1 && t.top < a.bottom - 1)
            out.push({ where: name(el), text, why: "text runs under the card's buttons" });
        }
      }
    return out;
  }, root);
}

/** Installs the canvas text recorder (call before navigating). */
export async function recordCanvasText(page: Page) {
  await page.addInitScript(() => {
    const texts: Array<{ text: string; x0: number; x1: number; y0: number; y1: number; width: number; height: number; id: number }> = [];
    (window as unknown as { __canvasTexts: typeof texts }).__canvasTexts = texts;
    const ids = new WeakMap<HTMLCanvasElement, number>();
    let next = 0;
    const original = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function (
      this: CanvasRenderingContext2D,
      text: string,
      x: number,
      y: number,
      maxWidth?: number,
    ) {
      const m = this.measureText(text);
      const left = this.textAlign === "center" ? x - m.width / 2 : this.textAlign === "right" || this.textAlign === "end" ? x - m.width : x;
      const corners = [
        [left, y - m.actualBoundingBoxAscent],
        [left + m.width, y - m.actualBoundingBoxAscent],
        [left, y + m.actualBoundingBoxDescent],
        [left + m.width, y + m.actualBoundingBoxDescent],
      ].map(([px, py]) => this.getTransform().transformPoint(new DOMPoint(px, py)));
      const canvas = this.canvas;
      if (!ids.has(canvas)) ids.set(canvas, next++);
      texts.push({
        text,
        id: ids.get(canvas)!,
        width: canvas.width,
        height: canvas.height,
        x0: Math.min(...corners.map((c) => c.x)),
        x1: Math.max(...corners.map((c) => c.x)),
        y0: Math.min(...corners.map((c) => c.y)),
        y1: Math.max(...corners.map((c) => c.y)),
      });
      return maxWidth === undefined ? original.call(this, text, x, y) : original.call(this, text, x, y, maxWidth);
    };
  });
}

/** Texts drawn since the last call that reach outside their canvas (in device pixels, 1 px of slack). */
export async function clippedCanvasText(page: Page): Promise<Clipped[]> {
  return page.evaluate(() => {
    const texts = (
      window as unknown as {
        __canvasTexts: Array<{ text: string; x0: number; x1: number; y0: number; y1: number; width: number; height: number; id: number }>;
      }
    ).__canvasTexts;
    const drawn = texts.splice(0, texts.length);
    return drawn
      .filter((t) => t.x0 < -1 || t.y0 < -1 || t.x1 > t.width + 1 || t.y1 > t.height + 1)
      .map((t) => ({
        where: `canvas ${t.id} (${t.width}x${t.height})`,
        text: t.text,
        why: `drawn at x ${Math.round(t.x0)}..${Math.round(t.x1)}, y ${Math.round(t.y0)}..${Math.round(t.y1)}`,
      }));
  });
}

/** Pairs of texts drawn on one canvas whose boxes overlap (legends running into labels). */
export async function overlappingCanvasText(page: Page): Promise<Clipped[]> {
  return page.evaluate(() => {
    const texts = (
      window as unknown as { __canvasTexts: Array<{ text: string; x0: number; x1: number; y0: number; y1: number; id: number }> }
    ).__canvasTexts;
    const out: Array<{ where: string; text: string; why: string }> = [];
    for (let i = 0; i < texts.length; i++)
      for (let j = i + 1; j < texts.length; j++) {
        const a = texts[i]!,
          b = texts[j]!;
        if (a.id !== b.id || (a.text === b.text && a.x0 === b.x0 && a.y0 === b.y0)) continue;
        const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
        const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
        if (w > 2 && h > 2)
          out.push({ where: `canvas ${a.id}`, text: `${a.text} / ${b.text}`, why: `overlap ${Math.round(w)}x${Math.round(h)}` });
      }
    return out;
  });
}

/**
 * The printout's header (print media): the print scene's header group (core/plots/print-header.ts, drawn as SVG) keeps
 * every text inside its room (A4 less 5 mm margins, the top 20 %) and clear of the other header texts. Call with the
 * print layout mounted and `page.emulateMedia({ media: "print" })`.
 */
export async function clippedPrintHeader(page: Page): Promise<Clipped[]> {
  return page.evaluate(() => {
    const svg = document.querySelector('[data-testid="print-page"] svg');
    const header = svg?.querySelector('g[data-role="print.header"]');
    if (!svg || !header) return [{ where: "print-header", text: "", why: "no print layout" }];
    const page = svg.getBoundingClientRect();
    const mm = page.width / 210;
    const room = {
      left: page.left + 5 * mm,
      right: page.right - 5 * mm,
      top: page.top + 5 * mm,
      bottom: page.top + 5 * mm + 0.2 * 287 * mm,
    };
    const boxes = [...header.querySelectorAll("text")]
      .map((t) => ({ text: t.textContent ?? "", r: t.getBoundingClientRect() }))
      .filter((b) => b.text.trim() !== "");
    const out: Array<{ where: string; text: string; why: string }> = [];
    // A glyph box reaches a little past its ink (the font's full ascent, a T's overhang): 2 px of slack.
    for (const b of boxes)
      if (b.r.left < room.left - 2 || b.r.right > room.right + 2 || b.r.top < room.top - 2 || b.r.bottom > room.bottom + 2)
        out.push({
          where: "print header",
          text: b.text,
          why: `text at x ${Math.round(b.r.left)}..${Math.round(b.r.right)}, y ${Math.round(b.r.top)}..${Math.round(b.r.bottom)} outside the header`,
        });
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!.r,
          c = boxes[j]!.r;
        const w = Math.min(a.right, c.right) - Math.max(a.left, c.left),
          h = Math.min(a.bottom, c.bottom) - Math.max(a.top, c.top);
        if (w > 1 && h > 1)
          out.push({
            where: "print header",
            text: `${boxes[i]!.text} / ${boxes[j]!.text}`,
            why: `overlap ${Math.round(w)}x${Math.round(h)}`,
          });
      }
    return out;
  });
}
