/** Black or white, whichever reads better on the accent (WCAG relative luminance). */
export function getAccentText(hex: string): "#ffffff" | "#111827" {
  const match = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!match) return "#ffffff";
  const channels = [0, 2, 4].map((start) => {
    const value = parseInt(match[1]!.slice(start, start + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * channels[0]! + 0.7152 * channels[1]! + 0.0722 * channels[2]!;
  // Contrast with white (1.05 / (L + 0.05)) against contrast with near-black ((L + 0.05) / 0.06).
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.06 ? "#ffffff" : "#111827";
}
