import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import MessageMarkdown from '../src/components/ui/MessageMarkdown.svelte';
import { renderMarkdown, safeUrl } from '../src/lib/markdown';

/** The rendered HTML as a detached DOM, to query like the page would. */
function dom(src: string): HTMLElement {
  const el = document.createElement('div');
  el.innerHTML = renderMarkdown(src);
  return el;
}

describe('Markdown rendering', () => {
  it('renders the usual Markdown of a reply', () => {
    const el = dom(
      [
        '## Plan',
        '',
        'Use **bold**, *italics* and `inline code`.',
        '',
        '1. first',
        '2. second',
        '',
        '- a',
        '- b',
        '',
        '> quoted',
        '',
        '| Tool | Runs | Share |',
        '| :--- | ---: | :---: |',
        '| exec | 12 | 60% |',
        '| read_file | 8 | 40% |',
        '',
        'See [the docs](https://example.org/docs) or https://example.com.',
      ].join('\n'),
    );
    expect(el.querySelector('h2')?.textContent).toBe('Plan');
    expect(el.querySelector('strong')?.textContent).toBe('bold');
    expect(el.querySelector('em')?.textContent).toBe('italics');
    expect(el.querySelector('p code')?.textContent).toBe('inline code');
    expect([...el.querySelectorAll('ol li')].map((li) => li.textContent)).toEqual(['first', 'second']);
    expect([...el.querySelectorAll('ul li')].map((li) => li.textContent)).toEqual(['a', 'b']);
    expect(el.querySelector('blockquote')?.textContent?.trim()).toBe('quoted');
    const rows = [...el.querySelectorAll('.table-wrap table tr')].map((tr) => [...tr.children].map((c) => c.textContent));
    expect(rows).toEqual([
      ['Tool', 'Runs', 'Share'],
      ['exec', '12', '60%'],
      ['read_file', '8', '40%'],
    ]);
    // Alignment becomes classes: no style attribute survives.
    expect(el.querySelector('td:nth-child(2)')?.className).toBe('align-right');
    expect(el.querySelector('[style]')).toBeNull();
    const links = [...el.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(links).toEqual(['https://example.org/docs', 'https://example.com']);
  });

  it('highlights fenced code and gives each block a Copy button', () => {
    const el = dom('```go\nfunc main() { fmt.Println("hi") }\n```\n\n```\nplain <b>text</b>\n```\n\n```nosuchlang\nx := 1\n```');
    const blocks = el.querySelectorAll('.code-block');
    expect(blocks).toHaveLength(3);
    expect(blocks[0].querySelector('.code-lang')?.textContent).toBe('go');
    expect(blocks[0].querySelector('.hljs-keyword')?.textContent).toBe('func');
    expect(blocks[0].querySelector('pre')?.textContent).toBe('func main() { fmt.Println("hi") }\n');
    expect(blocks[0].querySelector('button.code-copy')?.textContent).toBe('Copy');
    expect(blocks[1].querySelector('.code-lang')?.textContent).toBe('text');
    expect(blocks[1].querySelector('pre')?.textContent).toBe('plain <b>text</b>\n');
    expect(blocks[1].querySelector('b')).toBeNull();
    expect(blocks[2].querySelector('pre')?.textContent).toBe('x := 1\n');
  });

  it('keeps single line breaks, as chat models write them', () => {
    expect(dom('line one\nline two').querySelectorAll('br')).toHaveLength(1);
  });
});

describe('Markdown from an untrusted model is sanitised', () => {
  const attacks: [string, string][] = [
    ['a script tag', '<script>window.pwned = 1</script>'],
    ['an img onerror', '<img src=x onerror="window.pwned = 1">'],
    ['an svg onload', '<svg onload="window.pwned = 1"></svg>'],
    ['an iframe', '<iframe src="javascript:window.pwned = 1"></iframe>'],
    ['a javascript: link', '[click](javascript:window.pwned=1)'],
    ['an upper-case JAVASCRIPT: link', '[click](JAVASCRIPT:window.pwned=1)'],
    ['an entity-obfuscated javascript: link', '[click](jav&#x09;ascript:window.pwned=1)'],
    ['a vbscript: link', '[click](vbscript:msgbox)'],
    ['a data: link', '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)'],
    ['a file: link', '[click](file:///etc/passwd)'],
    ['a javascript: autolink', '<javascript:window.pwned=1>'],
    ['a relative link', '[settings](/settings)'],
    ['a data: image', '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)'],
    ['a code block language that closes the tag', '```"><img src=x onerror=window.pwned=1>\ncode\n```'],
    ['a link title that closes the attribute', '[x](https://example.org "a\\" onmouseover=\\"window.pwned=1")'],
    ['raw html in a table cell', '| a |\n|---|\n| <img src=x onerror=alert(1)> |'],
  ];
  for (const [name, src] of attacks) {
    it(`neutralises ${name}`, () => {
      const el = dom(src);
      expect(el.querySelector('script, img, svg, iframe, object, embed, style, form, input')).toBeNull();
      for (const node of el.querySelectorAll('*')) {
        for (const attr of node.attributes) {
          expect(attr.name.startsWith('on'), `${node.tagName} ${attr.name}`).toBe(false);
        }
      }
      for (const a of el.querySelectorAll('a')) expect(a.getAttribute('href')).toMatch(/^(https?:|mailto:)/);
    });
  }

  it('shows images as links to them, never loading them', () => {
    const el = dom('![chart](https://tracker.example/pixel.png?secret=1)');
    expect(el.querySelector('img')).toBeNull();
    const a = el.querySelector('a.image-link');
    expect(a?.getAttribute('href')).toBe('https://tracker.example/pixel.png?secret=1');
    expect(a?.textContent).toContain('chart');
  });

  it('accepts only web and mail links', () => {
    expect(safeUrl('https://example.org/a b')).toBe('https://example.org/a%20b');
    expect(safeUrl('mailto:me@example.org')).toBe('mailto:me@example.org');
    for (const bad of ['javascript:alert(1)', ' javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd', '/relative', 'https://', 'mailto:', 'wails://wails/']) {
      expect(safeUrl(bad), bad).toBeNull();
    }
  });
});

describe('MessageMarkdown', () => {
  it('opens links outside the app and copies code blocks', async () => {
    const onlink = vi.fn();
    const oncopy = vi.fn(async () => {});
    render(MessageMarkdown, { props: { source: 'Read [the guide](https://example.org/guide).\n\n```sh\nls -la\n```', onlink, oncopy } });
    const link = screen.getByRole('link', { name: 'the guide' });
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    link.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true); // the app's window never navigates
    expect(onlink).toHaveBeenCalledWith('https://example.org/guide');

    await fireEvent.click(screen.getByRole('button', { name: 'Copy code' }));
    expect(oncopy).toHaveBeenCalledWith('ls -la\n');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Copy code' }).textContent).toBe('Copied'));
  });

  it('says so when the clipboard refuses', async () => {
    render(MessageMarkdown, { props: { source: '```\nx\n```', onlink: vi.fn(), oncopy: vi.fn(async () => Promise.reject(new Error('no'))) } });
    await fireEvent.click(screen.getByRole('button', { name: 'Copy code' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Copy code' }).textContent).toBe('Copy failed'));
  });
});
