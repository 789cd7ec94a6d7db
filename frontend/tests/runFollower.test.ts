import { describe, expect, it } from 'vitest';
import { RunFollower, emptyTranscript, type Transcript } from '../src/lib/chat';
import type { AgentEvent } from '../src/lib/types';

function setup(session = 's1') {
  const t = emptyTranscript(session);
  const calls = { adopt: 0, end: 0 };
  const f = new RunFollower({
    transcript: () => t,
    onadopt: () => calls.adopt++,
    onend: () => calls.end++,
  });
  return { f, calls, t };
}

const ev = (run_id: string, seq: number, kind: AgentEvent['kind'], extra: Partial<AgentEvent> = {}): AgentEvent =>
  ({ run_id, seq, kind, session: 's1', ...extra }) as AgentEvent;

function text(t: Transcript): string {
  return t.items.map((i) => ('text' in i ? (i as { text: string }).text : '')).join('|');
}

describe('RunFollower', () => {
  it('buffers events that arrive before the run id is known and applies them in order', () => {
    const s = setup();
    s.f.beginSend('hi');
    s.f.receive(ev('r1', 2, 'text', { text: 'world' }));
    s.f.receive(ev('r1', 1, 'text', { text: 'hello ' }));
    s.f.started('r1');
    s.f.endSend();
    s.f.receive(ev('r1', 3, 'done'));
    expect(text(s.t)).toBe('hi|hello world');
    expect(s.t.running).toBe(false);
    expect(s.calls.end).toBe(1);
  });

  it('ignores other runs and everything after stop', () => {
    const s = setup();
    s.f.beginSend('hi');
    s.f.started('r1');
    s.f.endSend();
    s.f.receive(ev('other', 1, 'text', { text: 'not mine', session: 'elsewhere' }));
    expect(s.f.stop()).toBe('r1');
    s.f.receive(ev('r1', 1, 'text', { text: 'late' }));
    expect(text(s.t)).toBe('hi');
    expect(s.t.running).toBe(false);
    expect(s.f.stop()).toBeNull();
  });

  it('adopts a turn Warren started by itself in the shown session', () => {
    const s = setup();
    s.f.receive(ev('auto', 1, 'text', { text: 'subagents are done' }));
    expect(s.calls.adopt).toBe(1);
    expect(s.t.running).toBe(true);
    s.f.receive(ev('auto', 2, 'done'));
    expect(text(s.t)).toBe('subagents are done');
    expect(s.t.running).toBe(false);
  });

  it('does not adopt a turn in another session', () => {
    const s = setup();
    s.f.receive(ev('auto', 1, 'text', { text: 'x', session: 's2' }));
    expect(s.calls.adopt).toBe(0);
    expect(s.t.items).toHaveLength(0);
  });

  it('records the stored prompt id and model of a resend, and marks a stopped reply', () => {
    const s = setup();
    s.f.beginSend('again', 7);
    expect(s.t.items[0]).toEqual({ kind: 'user', text: 'again', replaces: 7 });
    s.f.started('r1');
    s.f.endSend();
    s.f.receive(ev('r1', 1, 'session', { model: 'qwen2.5:7b' }));
    s.f.receive(ev('r1', 2, 'prompt', { message_id: 12 }));
    s.f.receive(ev('r1', 3, 'text', { text: 'Par' }));
    expect(s.t.items).toEqual([
      { kind: 'user', text: 'again', id: 12 },
      { kind: 'assistant', text: 'Par', model: 'qwen2.5:7b' },
    ]);
    expect(s.f.stop()).toBe('r1');
    expect(s.t.items[1]).toMatchObject({ incomplete: 'stopped' });
    s.f.receive(ev('r1', 4, 'text', { text: 'tial' }));
    expect(text(s.t)).toBe('again|Par');
  });
});
