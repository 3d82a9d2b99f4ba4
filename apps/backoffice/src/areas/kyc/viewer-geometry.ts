/** The file viewer's arithmetic: zoom steps and the box a turned picture takes (pure, unit tested). */

/** Zoom steps, relative to the size that fits the stage. */
export const ZOOM_STEPS = [0.5, 0.75, 1, 1.5, 2, 3, 4] as const;
export const MIN_ZOOM = 0.5;
export const MAX_ZOOM = 4;
export const nextZoom = (zoom: number, direction: 1 | -1): number => {
  if (direction > 0) return ZOOM_STEPS.find((step) => step > zoom + 1e-9) ?? zoom;
  return [...ZOOM_STEPS].reverse().find((step) => step < zoom - 1e-9) ?? zoom;
};

/**
 * The geometry of a picture turned by `rotation` degrees and drawn at `scale` of its natural size:
 * the box it takes on the stage (its sides swap at 90 and 270 degrees), and the image's own size.
 */
export function imageBox(natural: { width: number; height: number }, rotation: number, scale: number) {
  const sideways = rotation % 180 !== 0;
  const width = natural.width * scale;
  const height = natural.height * scale;
  return { box: sideways ? { width: height, height: width } : { width, height }, image: { width, height } };
}

/** The scale at which a picture turned by `rotation` fits the stage (never enlarged beyond its own size). */
export function fitScale(
  natural: { width: number; height: number },
  rotation: number,
  stage: { width: number; height: number },
) {
  const { box } = imageBox(natural, rotation, 1);
  if (box.width <= 0 || box.height <= 0 || stage.width <= 0 || stage.height <= 0) return 1;
  return Math.min(1, stage.width / box.width, stage.height / box.height);
}
