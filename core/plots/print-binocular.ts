// The binocular integrated visual field on the printed result (issue 30): printed when the fellow eye was tested the
// same day on the same pattern and the field applies (core/analytics/binocular.ts integratedField); one cell of the
// page's plot grid, the disability score and the legend beside the field. A field that does not apply prints nothing:
// the page is the one eye's, and the screen says why there is no integrated field.

import type { IntegratedFieldOutcome } from "../analytics/binocular.ts";
import { integratedFieldScene } from "./binocular.ts";
import type { Scene } from "./scene.ts";

/** The print's integrated-field scenes at a grid cell's size: none, or the field with its score. */
export function printBinocularScenes(
  binocular: IntegratedFieldOutcome | null | undefined,
  cell: { readonly width: number; readonly height: number },
): Scene[] {
  if (!binocular?.applicable) return [];
  return [integratedFieldScene(binocular, { width: cell.width, height: cell.height, showScore: true })];
}
