// Finds the workspace images and audio files a tool result names
// (create_image, tts, a browser screenshot…), so the chat can show them
// inline. Only plain workspace paths count: no URLs, no "..", and the Go
// side checks each path again before it hands over a byte.

export type MediaKind = 'image' | 'audio';

export interface MediaRef {
  path: string;
  kind: MediaKind;
}

const KINDS: Record<string, MediaKind> = {
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  gif: 'image',
  webp: 'image',
  wav: 'audio',
  mp3: 'audio',
  ogg: 'audio',
  flac: 'audio',
};

/** At most this many previews per tool result. */
export const MAX_PREVIEWS = 4;

// A relative or absolute file path of plain name characters.
const PATH_RE = /^\/?(?:[\w@+-][\w.@+-]*\/)*[\w@+-][\w.@+-]*\.([a-z0-9]+)$/i;

/** Whether two paths name one file: the same, or one absolute path ending in the other (a result that gives both). */
function sameFile(a: string, b: string): boolean {
  return a === b || (a.startsWith('/') && a.endsWith(`/${b}`)) || (b.startsWith('/') && b.endsWith(`/${a}`));
}

/** The image and audio paths a tool result names, in order, without repeats. */
export function mediaRefs(text: string): MediaRef[] {
  const out: MediaRef[] = [];
  for (const raw of text.split(/[\s"'`<>()[\]{}]+/)) {
    const token = raw.replace(/[.,;:!?]+$/, '');
    if (!token || token.includes('..') || token.includes('//') || token.includes(':')) continue;
    const m = PATH_RE.exec(token);
    const kind = m ? KINDS[m[1].toLowerCase()] : undefined;
    if (!kind || out.some((r) => sameFile(r.path, token))) continue;
    out.push({ path: token, kind });
    if (out.length === MAX_PREVIEWS) break;
  }
  return out;
}

/** Whether url is a data: URL of the kind expected (never anything that could run). */
export function isMediaDataURL(url: string, kind: MediaKind): boolean {
  return url.startsWith(`data:${kind}/`) && !url.startsWith('data:image/svg') && url.includes(';base64,');
}
