import { describe, expect, it } from "vitest";
import { escapeHtml, getSafeHref, markdownToHtml } from "./markdown-to-html.js";

/** Every tag the HTML opens, as `<name attr…>`. */
const tags = (html: string) => [...html.matchAll(/<([a-z][a-z0-9]*)([^>]*)>/gi)];
/** Attributes of every tag: `name` (lower case) and value. */
const attributes = (html: string) =>
  tags(html).flatMap((tag) =>
    [...(tag[2] ?? "").matchAll(/([^\s=]+)\s*=\s*"([^"]*)"/g)].map((match) => ({
      tag: tag[1]!.toLowerCase(),
      name: match[1]!.toLowerCase(),
      value: match[2]!,
    })),
  );

const HOSTILE = [
  "<script>window.__pwned = 1</script>",
  "Hello <script>window.__pwned = 1</script> there",
  '<img src=x onerror="window.__pwned=1">',
  "<img src=x onerror=alert(1)>",
  "<svg/onload=alert(1)>",
  '<a href="javascript:alert(1)">click</a>',
  "[click](javascript:alert(1))",
  "[click](JaVaScRiPt:alert(1))",
  "[click](  javascript:alert(1))",
  "[click](java\tscript:alert(1))",
  "[click](&#106;avascript:alert(1))",
  "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
  "[click](vbscript:msgbox(1))",
  "<javascript:alert(1)>",
  '![x](x" onerror="alert(1))',
  "![x](javascript:alert(1))",
  '[x](https://example.com "title\\" onmouseover=\\"alert(1)")',
  '<div onclick="alert(1)">*raw* html block</div>',
  "<iframe src=https://evil.example></iframe>",
  "<style>body{display:none}</style>",
  '<form action="https://evil.example"><input name=a></form>',
  "```html\n<script>alert(1)</script>\n```",
  "`<img src=x onerror=alert(1)>`",
  "<!-- <script>alert(1)</script> -->",
];

describe("markdownToHtml", () => {
  it.each(HOSTILE)("renders %j with no script, no handler and no unsafe URL", (markdown) => {
    const html = markdownToHtml(markdown);
    const opened = tags(html).map((tag) => tag[1]!.toLowerCase());
    for (const forbidden of ["script", "img", "svg", "iframe", "style", "form", "input", "div"])
      expect(opened, html).not.toContain(forbidden);
    for (const attribute of attributes(html)) {
      expect(attribute.name, html).not.toMatch(/^on/);
      if (attribute.name === "href") expect(attribute.value, html).toMatch(/^(https?|mailto):/);
    }
    // Outside quoted values, no tag holds an `on…=` handler (a title with `" onmouseover="` stays inside).
    for (const tag of tags(html)) expect((tag[2] ?? "").replace(/"[^"]*"/g, '""')).not.toMatch(/\son/i);
  });

  it("shows raw HTML as the text it is", () => {
    expect(markdownToHtml("Hello <script>window.x = 1</script>")).toContain(
      "&lt;script&gt;window.x = 1&lt;/script&gt;",
    );
    expect(markdownToHtml('<img src=x onerror="alert(1)">')).toContain("&lt;img src=x onerror=");
  });

  it("keeps the text of a link whose target is unsafe, unlinked", () => {
    expect(markdownToHtml("[click me](javascript:alert(1))")).toBe("<p>click me</p>\n");
  });

  it("renders ordinary Markdown: emphasis, lists, code blocks, safe links, tables", () => {
    const html = markdownToHtml(
      "**Bold** and `code`\n\n- one\n- two\n\n```ts\nconst a = 1 < 2;\n```\n\n[docs](https://example.com/a?b=1&c=2)\n\n| a | b |\n| - | - |\n| 1 | 2 |",
    );
    expect(html).toContain("<strong>Bold</strong>");
    expect(html).toContain("<code>code</code>");
    expect(html).toContain("<li>one</li>");
    expect(html).toContain('<code class="language-ts">const a = 1 &lt; 2;\n</code>');
    expect(html).toContain('<a href="https://example.com/a?b=1&amp;c=2">docs</a>');
    expect(html).toContain("<table>");
  });

  it("turns an image into a link to it, never loading it", () => {
    expect(markdownToHtml("![chart](https://example.com/c.png)")).toBe(
      '<p><a href="https://example.com/c.png">chart (image)</a></p>\n',
    );
  });
});

describe("getSafeHref", () => {
  it("takes absolute http, https and mailto URLs only", () => {
    expect(getSafeHref("https://example.com/x")).toBe("https://example.com/x");
    expect(getSafeHref("mailto:help@example.com")).toBe("mailto:help@example.com");
    expect(getSafeHref("javascript:alert(1)")).toBeNull();
    expect(getSafeHref(" JAVASCRIPT:alert(1)")).toBeNull();
    expect(getSafeHref("/api/agents")).toBeNull();
    expect(getSafeHref("data:text/html,x")).toBeNull();
  });
});

describe("escapeHtml", () => {
  it("escapes what could open a tag, an entity or end an attribute", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
    );
  });
});
