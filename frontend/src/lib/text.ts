// A deliberately tiny renderer for the tools' long descriptions (Markdown
// files in tools/). It produces plain data that Svelte renders as text, so no
// HTML from the backend ever reaches the DOM: headings, paragraphs, bullet
// lists, fenced code and `inline code` only.

export interface Inline {
  code: boolean;
  text: string;
}

export type Block =
  | { kind: 'heading'; text: Inline[] }
  | { kind: 'paragraph'; text: Inline[] }
  | { kind: 'list'; items: Inline[][] }
  | { kind: 'code'; text: string };

export function inline(text: string): Inline[] {
  const out: Inline[] = [];
  const parts = text.split('`');
  // An odd number of parts means every backtick is paired.
  const paired = parts.length % 2 === 1;
  parts.forEach((part, i) => {
    const code = paired && i % 2 === 1;
    if (part !== '' || code) out.push({ code, text: code ? part : part.replace(/\*\*(.+?)\*\*/g, '$1') });
  });
  return paired ? out : [{ code: false, text }];
}

export function renderBlocks(src: string | null | undefined): Block[] {
  const blocks: Block[] = [];
  const lines = (src ?? '').replace(/\r\n/g, '\n').split('\n');
  let para: string[] = [];
  let list: string[] | null = null;
  const flush = () => {
    if (para.length) blocks.push({ kind: 'paragraph', text: inline(para.join(' ')) });
    if (list) blocks.push({ kind: 'list', items: list.map(inline) });
    para = [];
    list = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const trimmed = line.trim();
    if (trimmed.startsWith('```')) {
      flush();
      const code: string[] = [];
      for (i++; i < lines.length && !lines[i].trim().startsWith('```'); i++) code.push(lines[i]);
      blocks.push({ kind: 'code', text: code.join('\n') });
      continue;
    }
    if (trimmed === '') {
      flush();
      continue;
    }
    const heading = /^#{1,6}\s+(.*)$/.exec(trimmed);
    if (heading) {
      flush();
      blocks.push({ kind: 'heading', text: inline(heading[1]) });
      continue;
    }
    const item = /^[-*]\s+(.*)$/.exec(trimmed);
    if (item) {
      if (para.length) flush();
      (list ??= []).push(item[1]);
      continue;
    }
    if (list && /^\s+/.test(line)) {
      list[list.length - 1] += ' ' + trimmed; // continuation of a bullet
      continue;
    }
    if (list) flush();
    para.push(trimmed);
  }
  flush();
  return blocks;
}
