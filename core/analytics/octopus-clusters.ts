import { Pattern } from "../model/enums.ts";
import { getPattern, type PatternPoint } from "./patterns.ts";

/**
 * The ten nerve-fibre-bundle clusters of Octopus / EyeSuite cluster analysis, five per hemifield (Haag-Streit: "It groups
 * visual field defects along nerve fiber bundles in ten visual field clusters"; Buerki & Monhart, "An Update to Octopus
 * Perimetry", European Ophthalmic Review 2007, built them for the G program from Garway-Heath's map; Naghizadeh & Holló,
 * "Detection of early glaucomatous progression with Octopus cluster trend analysis", J Glaucoma 2014, doi:10.1097/IJG.0b013e3182741c69).
 *
 * OUR CHOICE: Haag-Streit publishes the clusters only as a figure, with no location list for any pattern, so we do not
 * claim to reproduce EyeSuite's membership. We build ten clusters the same way, from published nerve-fibre maps:
 * - each location's bundle is traced to the optic disc with Jansonius' model (Jansonius et al., "A mathematical
 *   description of nerve fiber bundle trajectories and their variability in the human retina", Vision Research
 *   2009;49:2157-2163, erratum 2010;50:1501; the nasal bundles after Jansonius et al., Exp Eye Res 2012;105:70-78);
 * - the entry angle is read in Garway-Heath's disc sectors (Garway-Heath et al., "Mapping the visual field to the optic
 *   disc in normal tension glaucoma eyes", Ophthalmology 2000;107:1809-1815; right eye, 0 degrees temporal, 90 superior:
 *   temporal 311-40, superotemporal 41-80, superonasal 81-120, nasal 121-230, inferonasal 231-270, inferotemporal 271-310);
 * - per hemifield (clusters never cross the horizontal meridian, as glaucomatous loss does not): central = the temporal
 *   sector; paracentral and nasal = the near and far halves of the (supero/infero)temporal sector; peripheral = the
 *   (supero/infero)nasal sector; temporal = bundles the model draws from the nasal disc. Jansonius' nasal family joins
 *   the arcuate ones at +-60 degrees (disc angles 120 and 240), not at Garway-Heath's 230, so the few temporal-field
 *   locations in the model's gap go to the temporal cluster rather than leaving 24-2 a one-location cluster.
 * G's fixation point (0, 0) lies on the meridian and belongs to no cluster. Blind spots are left out. The model is
 * asymmetric above and below (the disc sits 2 degrees above the fovea), so the clusters are too.
 */
export const HEMIFIELDS = ["superior", "inferior"] as const;
export const CLUSTER_REGIONS = ["central", "paracentral", "nasal", "peripheral", "temporal"] as const;
export type Hemifield = (typeof HEMIFIELDS)[number];
export type ClusterRegion = (typeof CLUSTER_REGIONS)[number];
export type OctopusClusterId = `${Hemifield}-${ClusterRegion}`;

export interface OctopusCluster {
  readonly id: OctopusClusterId;
  readonly hemifield: Hemifield;
  readonly region: ClusterRegion;
  /** Pattern indices (right-eye order; a left eye's index K is the mirror image, so the same list serves both eyes). */
  readonly locations: readonly number[];
}

/** Patterns with clusters: EyeSuite offers cluster analysis on G and on 24-2 / 30-2-like patterns. */
export const CLUSTER_PATTERNS: readonly Pattern[] = [Pattern.G, Pattern.P24_2, Pattern.P30_2];

const DEG = Math.PI / 180;
/** Jansonius' disc radius: bundles start at r0 = 4 degrees from the disc centre. */
const R0 = 4;

/** Jansonius' b and c for a bundle entering the disc at angle psi0 (degrees; 0 = nasal, 90 = superior retina). */
function bundleShape(psi0: number): readonly [number, number] {
  const cSuperior = 1.9 + 1.4 * Math.tanh((psi0 - 121) / 14);
  const cInferior = 1.0 + 0.5 * Math.tanh((-psi0 - 90) / 25);
  if (psi0 >= 60) return [Math.exp(-1.9 + 3.9 * Math.tanh(-(psi0 - 121) / 14)), cSuperior];
  if (psi0 <= -60) return [-Math.exp(0.7 + 1.5 * Math.tanh(-(-psi0 - 90) / 25)), cInferior];
  return [0.00083 * psi0 * psi0 + 0.02 * psi0 - 2.65, psi0 >= 0 ? cSuperior : cInferior];
}

/** Smallest absolute difference of two angles in degrees. */
const angleGap = (a: number, b: number) => Math.abs(((((a - b) % 360) + 540) % 360) - 180);

/**
 * The angle (degrees, -180..180, Jansonius' convention: 0 = nasal, 90 = superior retina) at which the model's bundle
 * through a visual-field location (right-eye coordinates) enters the disc: the psi0 whose trajectory
 * psi = psi0 + b (r - r0)^c passes closest to the location, in Jansonius' distorted polar coordinates about the disc at
 * (15, 2) on the retina. The search stays in the location's family of bundles (superior retina 60..180, inferior
 * -180..-60, beyond the disc -60..60), as visualFields 2 does, and among bundles that turn by less than half a circle
 * (the fitted power law, used beyond its data, would otherwise wind papillomacular bundles around the disc and past
 * the location a second time). A location in the gap the model leaves between two families gets the family's edge.
 * Scan in 0.25 degree steps, refined to 0.001 degree.
 */
export function discEntryAngle(p: PatternPoint): number {
  const x = p.x,
    y = -p.y; // the retina is the field upside down; x (temporal field = nasal retina) stays
  const xp = x - 15,
    yp = x > 0 ? y - 2 * (x / 15) ** 2 : y;
  const r = Math.hypot(xp, yp),
    psi = Math.atan2(yp, xp) / DEG;
  const [from, to] = x > 15 ? [-60, 60] : y < 0 ? [-180, -60] : [60, 180];
  const miss = (psi0: number) => {
    const [b, c] = bundleShape(psi0);
    const turn = b * Math.max(r - R0, 0) ** c;
    // Far out, the papillomacular bundles' power law turns by more than half a circle: no real bundle does.
    return Math.abs(turn) > 180 ? Number.POSITIVE_INFINITY : angleGap(psi0 + turn, psi);
  };
  let best = from,
    bestMiss = Number.POSITIVE_INFINITY;
  for (let k = from * 4; k <= to * 4; k++) {
    const m = miss(k / 4);
    if (m < bestMiss) [best, bestMiss] = [k / 4, m];
  }
  const centre = best;
  for (let j = -250; j <= 250; j++) {
    const psi0 = centre + j / 1000;
    if (psi0 < from || psi0 > to) continue;
    const m = miss(psi0);
    if (m < bestMiss) [best, bestMiss] = [psi0, m];
  }
  return best;
}

/** Garway-Heath's disc angle (right eye, 0 = temporal, 90 = superior disc) of a Jansonius entry angle. */
export const garwayHeathAngle = (psi0: number): number => (((180 - psi0) % 360) + 360) % 360;

/**
 * The cluster region of a location from its entry angle: the distance from the temporal pole of the disc (180 - |psi0|)
 * against Garway-Heath's boundaries, which are symmetric about 355.5 degrees, not about 0, hence per hemifield.
 */
function regionOf(hemifield: Hemifield, psi0: number): ClusterRegion {
  if (Math.abs(psi0) <= 60) return "temporal";
  const fromTemporalPole = 180 - Math.abs(psi0);
  // Superior field = inferior disc: temporal sector 311-360 (under 49.5 from the pole), inferotemporal 271-310 halved,
  // inferonasal from 270 to the model's nasal family (240). Inferior field = superior disc: temporal 0-40,
  // superotemporal 41-80 halved, superonasal to the nasal family (120).
  const [central, paracentral, nasal] = hemifield === "superior" ? [49.5, 69.5, 89.5] : [40.5, 60.5, 80.5];
  if (fromTemporalPole < central) return "central";
  if (fromTemporalPole < paracentral) return "paracentral";
  if (fromTemporalPole < nasal) return "nasal";
  return "peripheral";
}

const built = new Map<Pattern, readonly OctopusCluster[]>();

/** The ten clusters of a pattern, in the order superior then inferior, central to temporal; null off G, 24-2 and 30-2. */
export function octopusClusters(pattern: Pattern): readonly OctopusCluster[] | null {
  if (!CLUSTER_PATTERNS.includes(pattern)) return null;
  const cached = built.get(pattern);
  if (cached) return cached;
  const geometry = getPattern(pattern);
  const blind = new Set(geometry.blindSpotIndices);
  const members = new Map<OctopusClusterId, number[]>();
  for (const h of HEMIFIELDS) for (const r of CLUSTER_REGIONS) members.set(`${h}-${r}`, []);
  geometry.points.forEach((p, i) => {
    if (blind.has(i) || p.y === 0) return;
    const hemifield: Hemifield = p.y > 0 ? "superior" : "inferior";
    members.get(`${hemifield}-${regionOf(hemifield, discEntryAngle(p))}`)!.push(i);
  });
  const clusters = HEMIFIELDS.flatMap((hemifield) =>
    CLUSTER_REGIONS.map((region) =>
      Object.freeze({
        id: `${hemifield}-${region}` as const,
        hemifield,
        region,
        locations: Object.freeze(members.get(`${hemifield}-${region}`)!),
      }),
    ),
  );
  built.set(pattern, Object.freeze(clusters));
  return clusters;
}
