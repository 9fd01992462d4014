import { z } from "zod";

/** The keys of an object shape whose field has a `.default()`. */
type DefaultedKey<Shape extends z.ZodRawShape> = {
  [Key in keyof Shape]: Shape[Key] extends z.ZodDefault ? Key : never;
}[keyof Shape];

/**
 * The defaults of an object schema's fields, as parsing fills them in: what a form falls back to when a
 * value is cleared. Fields without a `.default()` are left out.
 */
export function getFieldDefaults<Shape extends z.ZodRawShape>(
  schema: z.ZodObject<Shape>,
): { [Key in DefaultedKey<Shape>]: z.output<Shape[Key]> } {
  const defaults: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    const parsed = z.safeParse(field, undefined);
    if (parsed.success && parsed.data !== undefined) defaults[key] = parsed.data;
  }
  return defaults as { [Key in DefaultedKey<Shape>]: z.output<Shape[Key]> };
}
