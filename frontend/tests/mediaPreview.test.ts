import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import ChatPanel from '../src/components/chat/ChatPanel.svelte';
import MediaProviders from '../src/components/settings/MediaProviders.svelte';
import ToolCallCard from '../src/components/chat/ToolCallCard.svelte';
import { isMediaDataURL, mediaRefs } from '../src/lib/mediaPreview';
import type { ToolCallView } from '../src/lib/chat';
import { fakeApi } from './fakeApi';

// A 1×1 PNG and a tiny WAV header, base64.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const WAV = btoa('RIFF\x24\x00\x00\x00WAVEfmt ');

describe('mediaRefs', () => {
  it('shows a file named both relative and absolute once', () => {
    expect(mediaRefs('Screenshot saved to browser/s-1.png (/home/u/ws/browser/s-1.png, 9 bytes).')).toEqual([{ path: 'browser/s-1.png', kind: 'image' }]);
    expect(mediaRefs('a/x.png and /elsewhere/b/x.png')).toHaveLength(2);
  });

  it('finds the workspace images and audio a result names', () => {
    expect(mediaRefs('Saved image to media/image-1.png (image/png, 70 bytes) via local.')).toEqual([{ path: 'media/image-1.png', kind: 'image' }]);
    expect(mediaRefs('Saved speech to media/speech-2.wav (audio/wav, 9 bytes).')).toEqual([{ path: 'media/speech-2.wav', kind: 'audio' }]);
    expect(mediaRefs('screenshot: "shots/a.JPG", again shots/a.JPG; and /ws/b.mp3')).toEqual([
      { path: 'shots/a.JPG', kind: 'image' },
      { path: '/ws/b.mp3', kind: 'audio' },
    ]);
  });

  it('ignores URLs, parent paths, other types and keeps to the cap', () => {
    expect(mediaRefs('https://example.org/a.png file:///etc/x.png ../up.png a/../b.png //host/c.png data:image/png;base64,xx')).toEqual([]);
    expect(mediaRefs('notes.txt report.pdf image.svg')).toEqual([]);
    expect(mediaRefs('a.png b.png c.png d.png e.png').map((r) => r.path)).toEqual(['a.png', 'b.png', 'c.png', 'd.png']);
  });

  it('accepts only data URLs of the expected kind, never SVG', () => {
    expect(isMediaDataURL(`data:image/png;base64,${PNG}`, 'image')).toBe(true);
    expect(isMediaDataURL('data:image/svg+xml;base64,PHN2Zz4=', 'image')).toBe(false);
    expect(isMediaDataURL('data:audio/wav;base64,AA==', 'image')).toBe(false);
    expect(isMediaDataURL('javascript:alert(1)', 'audio')).toBe(false);
  });
});

function call(result: string, code?: string): ToolCallView {
  return { id: 'c1', name: 'create_image', args: '{}', result, code, running: false };
}

describe('tool card media', () => {
  it('shows a produced image inline and an audio player, without opening the card', async () => {
    const load = vi.fn(async (path: string) => (path.endsWith('.png') ? `data:image/png;base64,${PNG}` : `data:audio/wav;base64,${WAV}`));
    render(ToolCallCard, { props: { call: call('Saved to media/a.png and media/s.wav.'), ontoggle: () => {}, loadMedia: load } });
    const img = await screen.findByRole('img', { name: 'media/a.png' });
    expect(img.getAttribute('src')).toBe(`data:image/png;base64,${PNG}`);
    await waitFor(() => expect(document.querySelector('audio')?.getAttribute('src')).toBe(`data:audio/wav;base64,${WAV}`));
    expect(load).toHaveBeenCalledTimes(2);
    expect(screen.queryByTestId('tool-result')).toBeNull();
  });

  it('says why a file cannot be shown, and refuses a non-media answer', async () => {
    const load = vi.fn(async (path: string) => {
      if (path === 'gone.png') throw new Error('media/gone.png does not exist');
      return 'data:text/html;base64,PGI+';
    });
    render(ToolCallCard, { props: { call: call('gone.png evil.png'), ontoggle: () => {}, loadMedia: load } });
    expect(await screen.findByText(/Cannot show gone.png: media\/gone.png does not exist/)).toBeTruthy();
    expect(await screen.findByText(/Cannot show evil.png: not an image/)).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('shows nothing for failed calls or without a loader', () => {
    const load = vi.fn(async () => `data:image/png;base64,${PNG}`);
    render(ToolCallCard, { props: { call: call('SecurityError: ../x.png is outside', 'SecurityError'), ontoggle: () => {}, loadMedia: load } });
    render(ToolCallCard, { props: { call: call('media/a.png'), ontoggle: () => {} } });
    expect(screen.queryByTestId('tool-media')).toBeNull();
    expect(load).not.toHaveBeenCalled();
  });
});

describe('chat panel media', () => {
  it('loads a finished tool call’s image from the agent’s workspace', async () => {
    const api = fakeApi();
    await api.attachFile('default', 'pic.png', PNG);
    const user = userEvent.setup();
    render(ChatPanel, { props: { api, active: true } });
    await waitFor(() => expect(api.sessions).toHaveBeenCalledWith('default'));
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'draw{Enter}');
    api.emitAgent({ kind: 'session', session: 'sess-1' });
    api.emitAgent({ kind: 'tool_start', tool: 'create_image', call_id: 'c1', args: '{"prompt":"x"}' });
    api.emitAgent({ kind: 'tool_end', tool: 'create_image', call_id: 'c1', result: 'Saved image to attachments/pic.png (image/png, 70 bytes).' });
    const card = await waitFor(() => {
      const el = document.querySelector<HTMLElement>('[data-tool-call="create_image"]');
      if (!el) throw new Error('no card');
      return el;
    });
    const img = await within(card).findByRole('img', { name: 'attachments/pic.png' });
    expect(img.getAttribute('src')).toBe(`data:image/png;base64,${PNG}`);
    expect(api.mediaDataURL).toHaveBeenCalledWith('default', 'attachments/pic.png');
  });
});

describe('media providers settings', () => {
  it('shows the four chains, saves one normalised and reports a bad name', async () => {
    const api = fakeApi();
    const user = userEvent.setup();
    render(MediaProviders, { props: { api, active: true, providers: ['local', 'claude'] } });
    const vision = await screen.findByRole('combobox', { name: 'Vision' });
    expect(screen.getAllByRole('combobox').map((b) => b.getAttribute('id'))).toEqual([
      'media-media.image_providers',
      'media-media.speech_providers',
      'media-media.transcribe_providers',
      'media-media.vision_providers',
    ]);
    await user.type(vision, ' local:llava:13b , claude ');
    const row = vision.closest('form') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: 'Save' }));
    expect(api.setSectionSetting).toHaveBeenCalledWith('media', 'media.vision_providers', 'local:llava:13b , claude');
    expect(await within(row).findByRole('status')).toHaveProperty('textContent', 'Saved.');
    expect((vision as HTMLInputElement).value).toBe('local:llava:13b,claude');

    const images = screen.getByRole('combobox', { name: 'Images' });
    await user.type(images, 'Bad Name');
    const imgRow = images.closest('form') as HTMLElement;
    expect(within(imgRow).getByText(/Not configured yet: Bad Name/)).toBeTruthy();
    await user.click(within(imgRow).getByRole('button', { name: 'Save' }));
    expect((await within(imgRow).findByRole('alert')).textContent).toMatch(/provider name/);
  });
});
