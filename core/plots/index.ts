// core/plots: every plot of the result pages as a declarative scene, plus the SVG writer. See scene.ts for the model.
//
// Drawing a scene (react-konva or any canvas): draw `background` as a full-size rect, then the nodes in order.
//   rect -> Rect; circle -> Circle (x = cx, y = cy, radius = r); line -> Line [x1, y1, x2, y2];
//   polyline -> Line (points, closed, fill); group -> Group (x, y, scaleX = scaleY = scale);
//   symbol -> the primitives of symbolShapes(node); text -> Text at y = textTopY(node), lineHeight 1, the text from
//   resolveText(node.text, translate), x shifted left by anchorFraction[anchor] * measured width, rotation about (x, y);
//   `tabular` text needs digits of equal width: SVG says font-variant-numeric: tabular-nums, but Konva's Text has no
//   such attribute (its fontVariant goes into the canvas `font` shorthand, which takes only normal or small-caps, and
//   canvas has no font-variant-numeric), so on a canvas give tabular text a family whose digits are tabular by default
//   (web/results/scene-shapes.ts tabularFontFamily); colours -> resolveColour(token) (or the CSS custom property of that name).
export * from "./scene.ts";
export * from "./palette.ts";
export * from "./message.ts";
export * from "./bands.ts";
export * from "./symbols.ts";
export * from "./axes.ts";
export * from "./format.ts";
export { fieldFrame, fieldAxes, type FieldBox, type FieldFrame } from "./field.ts";
export * from "./octopus.ts";
export * from "./grayscale.ts";
export * from "./humphrey.ts";
export * from "./legends.ts";
export * from "./bebie.ts";
export * from "./progression.ts";
export * from "./gaze.ts";
export * from "./esterman.ts";
export * from "./screening.ts";
export * from "./live.ts";
export * from "./amsler.ts";
export * from "./svg.ts";
export * from "./text-metrics.ts";
export * from "./result-plots.ts";
export * from "./page.ts";
