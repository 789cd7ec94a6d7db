// One naming rule for everything a person names in Warren (agents,
// providers, MCP servers, schedules): the person types a display name, the
// id is derived from it and shown. Ids: lowercase ASCII letters and digits
// joined by "-" (or "_" where the id becomes a tool name), at most 64
// characters, starting with a letter or digit.

/** The longest id Warren accepts. */
export const MAX_ID = 64;

/** Derives an id from a display name: "Research Bot" → "research-bot", "Café Ølså" → "cafe-olsa". */
export function idFromName(name: string, sep: '-' | '_' = '-'): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ø/gi, 'o')
    .replace(/æ/gi, 'ae')
    .replace(/ß/g, 'ss')
    .toLowerCase();
  const id = ascii
    .replace(/[^a-z0-9]+/g, sep)
    .replace(new RegExp(`^\\${sep}+|\\${sep}+$`, 'g'), '')
    .slice(0, MAX_ID)
    .replace(new RegExp(`\\${sep}+$`), '');
  return sep === '_' && /^[0-9]/.test(id) ? `t_${id}`.slice(0, MAX_ID) : id;
}

/** What is wrong with an id, as a sentence; "" when it is fine. */
export function idProblem(id: string, sep: '-' | '_' = '-'): string {
  if (!id) return 'Give it a name with at least one letter or digit.';
  if (id.length > MAX_ID) return `The id is ${id.length} characters long; at most ${MAX_ID} fit.`;
  const ok = sep === '_' ? /^[a-z][a-z0-9_]*$/ : /^[a-z0-9][a-z0-9_-]*$/;
  if (!ok.test(id)) {
    return sep === '_'
      ? 'Use lowercase letters, digits and "_", starting with a letter.'
      : 'Use lowercase letters, digits, "-" and "_", starting with a letter or digit.';
  }
  return '';
}

/** An id not in taken: id, id-2, id-3 … */
export function uniqueId(id: string, taken: Iterable<string>, sep: '-' | '_' = '-'): string {
  const set = new Set(taken);
  if (!set.has(id)) return id;
  for (let n = 2; ; n++) {
    const suffix = `${sep}${n}`;
    const candidate = id.slice(0, MAX_ID - suffix.length) + suffix;
    if (!set.has(candidate)) return candidate;
  }
}
