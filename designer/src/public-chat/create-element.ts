type Child = Node | string | null | undefined | false;

/**
 * A DOM element with attributes and children. Strings become text nodes, never markup: the page builds
 * everything it shows this way, and only `sanitize-answer.ts` produces elements from the model's text.
 */
export function createElement<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | boolean | undefined> = {},
  children: readonly Child[] = [],
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return element;
}

/** An inline SVG icon (paths only), hidden from screen readers: the button around it carries the label. */
export function createIcon(paths: readonly string[], size = 18): SVGSVGElement {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", String(size));
  svg.setAttribute("height", String(size));
  svg.setAttribute("fill", "none");
  svg.setAttribute("stroke", "currentColor");
  svg.setAttribute("stroke-width", "2");
  svg.setAttribute("stroke-linecap", "round");
  svg.setAttribute("stroke-linejoin", "round");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  for (const d of paths) {
    const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
    path.setAttribute("d", d);
    svg.append(path);
  }
  return svg;
}

/** The icons the page uses (24×24 strokes). */
export const ICONS = {
  send: ["M5 12h14", "M13 6l6 6-6 6"],
  plus: ["M12 5v14", "M5 12h14"],
  copy: ["M9 9h10v10H9z", "M5 15V5h10"],
  check: ["M5 12l5 5L20 7"],
  close: ["M6 6l12 12", "M18 6L6 18"],
  thumbUp: [
    "M7 10v11H4V10h3z",
    "M7 10l4-8c1.7 0 3 1.3 3 3v3h5.2c1.2 0 2.1 1.1 1.9 2.3l-1.4 8c-.2 1-1 1.7-2 1.7H7",
  ],
  thumbDown: [
    "M7 14V3H4v11h3z",
    "M7 14l4 8c1.7 0 3-1.3 3-3v-3h5.2c1.2 0 2.1-1.1 1.9-2.3l-1.4-8c-.2-1-1-1.7-2-1.7H7",
  ],
} as const;
