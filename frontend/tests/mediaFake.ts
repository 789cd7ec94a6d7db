// The settings-section part of the fake WarrenApi (fakeApi.ts spreads it
// in): the media provider chains, checked the way warren.checkMediaChain
// checks them, and the web section with its secret.
import { vi } from 'vitest';
import type { SettingValue } from '../src/lib/types';

export function mediaFakes() {
  const settings: SettingValue[] = ['image', 'speech', 'transcribe', 'vision'].map((k) => ({
    key: `media.${k}_providers`,
    value: '',
    default: '',
    description: `providers for ${k}`,
  }));
  const web: SettingValue[] = [
    { key: 'web.allowed_hosts', value: '', default: '', description: 'trusted local hosts' },
    { key: 'web.brave_api_key', value: '', default: '', description: 'the Brave key', secret: true },
    { key: 'browser.headless', value: 'true', default: 'true', description: 'no window', bool: true },
  ];
  const sections: Record<string, SettingValue[]> = { media: settings, web };
  return {
    sectionSettings: vi.fn(async (section: string): Promise<SettingValue[]> => {
      if (!sections[section]) throw `no settings section "${section}"`;
      return structuredClone(sections[section]);
    }),
    setSectionSetting: vi.fn(async (section: string, key: string, value: string) => {
      const s = sections[section]?.find((x) => x.key === key);
      if (!s) throw `"${key}" is not a setting of the ${section} section`;
      if (section === 'web') {
        if (key === 'web.allowed_hosts' && value.includes('://')) throw `setting ${key}: "${value}": an entry is host or host:port`;
        s.value = s.secret ? (value ? '(set)' : '') : value;
        return;
      }
      const entries = value.split(',').map((e) => e.trim()).filter(Boolean);
      for (const e of entries) {
        const name = e.split(':')[0];
        if (!/^[a-z0-9_-]{1,64}$/.test(name)) throw `setting ${key}: "${name}": a provider name is 1-64 lower-case letters, digits, _ or -`;
      }
      s.value = entries.join(',');
    }),
  };
}
