// JSON.parse messages differ between engines (WebKitGTK says little more
// than "JSON Parse error: Unexpected token"), so when parsing fails we walk
// the text once more with a small recursive-descent checker that says where
// and what it expected, the same way in every engine.

export interface JsonProblem {
  line: number;
  column: number;
  message: string;
}

class Fail extends Error {
  constructor(
    readonly at: number,
    message: string,
  ) {
    super(message);
  }
}

/** Finds the first syntax error in text, or null if it is valid JSON. */
export function findJsonProblem(text: string): JsonProblem | null {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const describe = (at: number) => (at >= text.length ? 'the end of the text' : JSON.stringify(text[at]));
  const expect = (what: string): never => {
    throw new Fail(i, `expected ${what} but found ${describe(i)}`);
  };

  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    if (c === '-' || (c >= '0' && c <= '9')) return number();
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return;
      }
    }
    if (c === "'") throw new Fail(i, 'strings need double quotes (") in JSON, not single quotes');
    expect('a value (string, number, object, array, true, false or null)');
  };

  const object = () => {
    i++; // {
    ws();
    if (text[i] === '}') {
      i++;
      return;
    }
    for (;;) {
      ws();
      if (text[i] !== '"') {
        if (text[i] === '}') throw new Fail(i, 'a trailing comma is not allowed in JSON');
        expect('a property name in double quotes');
      }
      string();
      ws();
      if (text[i] !== ':') expect('":" after the property name');
      i++;
      value();
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '}') {
        i++;
        return;
      }
      expect('"," or "}"');
    }
  };

  const array = () => {
    i++; // [
    ws();
    if (text[i] === ']') {
      i++;
      return;
    }
    for (;;) {
      value();
      ws();
      if (text[i] === ',') {
        i++;
        ws();
        if (text[i] === ']') throw new Fail(i, 'a trailing comma is not allowed in JSON');
        continue;
      }
      if (text[i] === ']') {
        i++;
        return;
      }
      expect('"," or "]"');
    }
  };

  const string = () => {
    const start = i++;
    while (i < text.length) {
      const c = text[i];
      if (c === '"') {
        i++;
        return;
      }
      if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) throw new Fail(i, 'a \\u escape needs four hex digits');
          i += 6;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) throw new Fail(i, `unknown escape \\${e ?? ''}`);
        i += 2;
        continue;
      }
      if (c === '\n' || c < ' ') throw new Fail(i, 'a line break or control character inside a string (write \\n)');
      i++;
    }
    throw new Fail(start, 'this string is never closed');
  };

  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) expect('a number');
    i += m![0].length;
  };

  try {
    value();
    ws();
    if (i < text.length) expect('nothing more after the value');
    return null;
  } catch (err) {
    if (!(err instanceof Fail)) throw err;
    const before = text.slice(0, err.at);
    const line = before.split('\n').length;
    const column = err.at - before.lastIndexOf('\n');
    return { line, column, message: err.message };
  }
}

/** "line 2, column 5: expected … but found …", or the engine's message. */
export function jsonErrorText(text: string, err: unknown): string {
  const p = findJsonProblem(text);
  if (p) return `line ${p.line}, column ${p.column}: ${p.message}`;
  return err instanceof Error ? err.message : String(err);
}
