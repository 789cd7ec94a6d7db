// Markdown for model replies. Model output is untrusted (a prompt-injected
// page can make a model write anything), so the rendering is safe twice:
// markdown-it runs with raw HTML off (every tag in the text is escaped), only
// http(s) and mailto links survive, images become plain links (a remote image
// would load by itself and could carry data out in its URL), and the result
// goes through DOMPurify with a short allow list before it reaches the DOM.
import DOMPurify from 'dompurify';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import MarkdownIt from 'markdown-it';

// The languages agents write most (with their aliases: sh, js, ts, py, html,
// yml…); others show as plain code, which keeps the bundle small.
for (const [name, lang] of Object.entries({ bash, c, css, diff, go, javascript, json, python, rust, sql, typescript, xml, yaml }))
  hljs.registerLanguage(name, lang);

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** url when it may be opened from a reply (http, https, mailto with an address); null otherwise. */
export function safeUrl(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return null; // relative links would navigate the app itself
  }
  if (u.protocol === 'http:' || u.protocol === 'https:') return u.hostname ? u.href : null;
  if (u.protocol === 'mailto:') return u.pathname ? u.href : null;
  return null;
}

/** Highlighted HTML (escaped) for a fenced block, plain escaped text for unknown languages. */
function highlight(code: string, lang: string): string {
  if (lang && hljs.getLanguage(lang)) {
    try {
      return hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
    } catch {
      // fall through to plain text
    }
  }
  return escapeHtml(code);
}

const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });
md.validateLink = (url) => safeUrl(url) !== null;

md.renderer.rules.fence = (tokens, idx) => {
  const token = tokens[idx];
  const lang = token.info.trim().split(/\s+/)[0] ?? '';
  const label = lang ? escapeHtml(lang) : 'text';
  return (
    `<div class="code-block"><div class="code-head"><span class="code-lang">${label}</span>` +
    `<button type="button" class="code-copy" aria-label="Copy code">Copy</button></div>` +
    `<pre><code class="hljs">${highlight(token.content, lang.toLowerCase())}</code></pre></div>\n`
  );
};

// An image is shown as a link to it: nothing loads until the user asks.
md.renderer.rules.image = (tokens, idx) => {
  const token = tokens[idx];
  const src = String(token.attrGet('src') ?? '');
  const alt = token.content || src;
  return `<a href="${escapeHtml(src)}" class="image-link" title="Image (not loaded)">Image: ${escapeHtml(alt)}</a>`;
};

// Column alignment as classes: the sanitiser allows no style attributes.
for (const rule of ['th_open', 'td_open'] as const) {
  md.renderer.rules[rule] = (tokens, idx, opts, _env, self) => {
    const t = tokens[idx];
    const align = /text-align:\s*(left|center|right)/.exec(String(t.attrGet('style') ?? ''));
    t.attrs = (t.attrs ?? []).filter(([name]) => name !== 'style');
    if (align) t.attrJoin('class', `align-${align[1]}`);
    return self.renderToken(tokens, idx, opts);
  };
}
// Wide tables scroll inside the bubble instead of widening it.
md.renderer.rules.table_open = () => '<div class="table-wrap"><table>\n';
md.renderer.rules.table_close = () => '</table></div>\n';

const PURIFY = {
  ALLOWED_TAGS: [
    'a', 'p', 'br', 'hr', 'strong', 'em', 's', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li',
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'div', 'span', 'button',
  ],
  ALLOWED_ATTR: ['href', 'title', 'class', 'type', 'start', 'aria-label'],
  ALLOWED_URI_REGEXP: /^(?:https?|mailto):/i,
  ALLOW_DATA_ATTR: false,
};

/** A model reply as sanitised HTML: Markdown with highlighted code blocks, tables and safe links. */
export function renderMarkdown(src: string): string {
  return DOMPurify.sanitize(md.render(src ?? ''), PURIFY);
}
