/** A curve that bows to one side of the straight line, so an arc never hides under a drawn edge. */
export function getArcPath(options: { sourceX: number; sourceY: number; targetX: number; targetY: number }): {
  path: string;
  labelX: number;
  labelY: number;
} {
  const { sourceX, sourceY, targetX, targetY } = options;
  const dx = targetX - sourceX;
  const dy = targetY - sourceY;
  const length = Math.hypot(dx, dy) || 1;
  const bow = Math.min(160, Math.max(48, length * 0.28));
  // the normal to the left of the direction of travel: forward arcs bow up, backward ones down
  const controlX = (sourceX + targetX) / 2 + (dy / length) * bow;
  const controlY = (sourceY + targetY) / 2 - (dx / length) * bow;
  const round = (value: number) => Math.round(value * 10) / 10;
  return {
    path: `M ${sourceX},${sourceY} Q ${round(controlX)},${round(controlY)} ${targetX},${targetY}`,
    labelX: (sourceX + 2 * controlX + targetX) / 4,
    labelY: (sourceY + 2 * controlY + targetY) / 4,
  };
}
