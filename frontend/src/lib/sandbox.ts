// What the sandbox status means for the user, in words.
import type { SandboxStatus } from './types';

export type Tone = 'safe' | 'caution' | 'danger' | 'blocked';

export interface Verdict {
  tone: Tone;
  headline: string;
  detail: string;
}

export const HOST_HEADLINE = 'Commands run ON THIS MACHINE (no sandbox)';
export const PODMAN_HEADLINE = 'Commands run in rootless Podman containers';

/** Where commands run right now, given the configured mode and what is available. */
export function whereCommandsRun(s: SandboxStatus): Verdict {
  if (s.mode === 'host') {
    return {
      tone: 'danger',
      headline: HOST_HEADLINE,
      detail: 'Sandbox mode is “host”: agents’ commands run as your user, with your files and your network.',
    };
  }
  if (!s.available) {
    if (s.fallback === 'host') {
      return {
        tone: 'danger',
        headline: HOST_HEADLINE,
        detail: 'The Podman sandbox is not ready and the fallback is “host”, so commands run directly on this machine.',
      };
    }
    return {
      tone: 'blocked',
      headline: 'Commands are refused: the sandbox is not ready',
      detail: 'The fallback is “deny”, so nothing runs until the Podman sandbox is ready (see the error below).',
    };
  }
  if (!s.rootless) {
    return {
      tone: 'caution',
      headline: 'Commands run in Podman containers (rootful)',
      detail: 'The Podman service runs as root: containers are isolated, but a container escape would be root on this machine.',
    };
  }
  return {
    tone: 'safe',
    headline: PODMAN_HEADLINE,
    detail: 'Each session gets its own container: read-only root, all capabilities dropped, only the workspace writable, no network unless a tool asks for one.',
  };
}

/** Docker-style short container id. */
export function shortId(id: string): string {
  return id.length > 12 ? id.slice(0, 12) : id;
}
