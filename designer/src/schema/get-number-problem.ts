/** The limits a typed number must keep: a JSON Schema's or a zod field's (`NumberBounds` of the protocol). */
export interface NumberLimits {
  integer?: boolean;
  min?: number;
  max?: number;
  exclusiveMin?: number;
  exclusiveMax?: number;
}

/** Why a typed number is refused, or null when it keeps its limits. */
export function getNumberProblem(value: number, limits: NumberLimits): string | null {
  const { integer, min, max, exclusiveMin, exclusiveMax } = limits;
  if (integer && !Number.isInteger(value)) return "Enter a whole number.";
  if (min !== undefined && value < min) return `At least ${min}.`;
  if (max !== undefined && value > max) return `At most ${max}.`;
  if (exclusiveMin !== undefined && value <= exclusiveMin) return `More than ${exclusiveMin}.`;
  if (exclusiveMax !== undefined && value >= exclusiveMax) return `Less than ${exclusiveMax}.`;
  return null;
}
