// Small helpers for words the UI builds from numbers.

/** plural(1, 'tool') → "1 tool", plural(3, 'tool') → "3 tools"; many for irregular plurals. */
export const plural = (k: number, one: string, many = `${one}s`) => `${k} ${k === 1 ? one : many}`;
