// The media part of the fake WarrenApi (fakeApi.ts spreads it in): the
// provider chains, checked the way warren.checkMediaChain checks them.
import { vi } from 'vitest';
import type { SettingValue } from '../src/lib/types';

export function mediaFakes() {
  const settings: SettingValue[] = ['image', 'speech', 'transcribe', 'vision'].map((k) => ({
    key: `media.${k}_providers`,
    value: '',
    default: '',
    description: `providers for ${k}`,
  }));
  return {
    mediaSettings: vi.fn(async (): Promise<SettingValue[]> => structuredClone(settings)),
    setMediaSetting: vi.fn(async (key: string, value: string) => {
      const s = settings.find((x) => x.key === key);
      if (!s) throw `"${key}" is not a media provider setting`;
      const entries = value.split(',').map((e) => e.trim()).filter(Boolean);
      for (const e of entries) {
        const name = e.split(':')[0];
        if (!/^[a-z0-9_-]{1,64}$/.test(name)) throw `setting ${key}: "${name}": a provider name is 1-64 lower-case letters, digits, _ or -`;
      }
      s.value = entries.join(',');
    }),
  };
}
