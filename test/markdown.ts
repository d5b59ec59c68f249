/**
 * What a piece of Markdown does once rendered, read with a real CommonMark/GFM parser (markdown-it, its
 * tables and strikethrough, `linkify` for autolinks, HTML on as GitHub allows it), never by comparing
 * strings: its links, HTML, code, and what GitHub itself turns into mentions, references and autolinks
 * after parsing (in text outside code, where a backslash escape is already gone).
 */
import MarkdownIt, { type Token } from "markdown-it";

const md = new MarkdownIt({ html: true, linkify: true });

export const ZWSP = /\u200b/g;

/** Every token, inline children in place, in document order. */
export function tokens(src: string): Token[] {
  return md.parse(src, {}).flatMap((t) => [t, ...(t.children ?? [])]);
}

/**
 * What GitHub makes of text outside code after parsing (its filters run on text nodes, so escapes no longer
 * count): a mention (`@user`, `@org/team`), a reference (`#12`, `GH-12`, a commit id), an autolink
 * (`www.`, a URL, `mailto:`/`xmpp:`, an e-mail address).
 */
const GITHUB_TEXT: readonly [string, RegExp][] = [
  ["mention", /(?:^|[^\w`])@[a-z0-9]/i],
  ["reference", /(?:^|[^\w])#\d|\bGH-\d|(?:^|[^0-9a-z])[0-9a-f]{7,40}(?![0-9a-z])/i],
  ["autolink", /www\.|\b(?:https?|ftp):\/\/|\b(?:mailto|xmpp):[\w.+-]|[\w.+-]@[\w-]+\.\w/i],
];

export interface Allowed {
  /** Links that are ours (the rule docs): anything else is a finding. */
  href?: (href: string) => boolean;
  /** HTML that is ours (`<sub>`, `<details>`, the hidden markers). */
  html?: (content: string) => boolean;
}

/** What in `src` is live: links, images and HTML not allowed, and what GitHub would link or notify. */
export function liveParts(src: string, allowed: Allowed = {}): string[] {
  const out: string[] = [];
  for (const t of tokens(src)) {
    if (t.type === "link_open" && !allowed.href?.(String(t.attrGet("href") ?? "")))
      out.push(`link ${t.attrGet("href")}${t.markup === "linkify" ? " (autolink)" : ""}`);
    else if (t.type === "image") out.push(`image ${t.attrGet("src")}`);
    else if ((t.type === "html_inline" || t.type === "html_block") && !allowed.html?.(t.content))
      out.push(`${t.type} ${t.content.trim()}`);
    else if (t.type === "text")
      for (const [what, re] of GITHUB_TEXT)
        if (re.test(t.content)) out.push(`${what} in ${JSON.stringify(t.content)}`);
  }
  return out;
}

/** The text a reader sees outside code (zero-width spaces aside). */
export function shownText(src: string): string {
  return tokens(src)
    .filter((t) => t.type === "text")
    .map((t) => t.content)
    .join("")
    .replace(ZWSP, "");
}

/** What a reader sees, in order: text, and code spans between backticks (zero-width spaces aside). */
export function readable(src: string): string {
  return tokens(src)
    .map((t) =>
      t.type === "text"
        ? t.content
        : t.type === "code_inline"
          ? `\`${t.content}\``
          : t.type === "softbreak"
            ? "\n"
            : "",
    )
    .join("")
    .replace(ZWSP, "");
}

/** The contents of every code span. */
export function codeSpans(src: string): string[] {
  return tokens(src)
    .filter((t) => t.type === "code_inline")
    .map((t) => t.content);
}

/** The App's own HTML: its hidden markers, and the summary's `<sub>` and `<details>`. */
export const OWN_HTML = (content: string): boolean =>
  content
    .trim()
    .split(/\s*\n\s*/)
    .every(
      (line) =>
        /^<!-- plugin-review:(?:id=[0-9a-f]{32}|head=[0-9a-f]{40}|fixed|recheck) -->$/.test(line) ||
        /^<\/?(?:sub|details)>$/.test(line) ||
        /^<summary>[^<>]*<\/summary>$/.test(line),
    );
