import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import WebSettings from '../src/components/settings/WebSettings.svelte';
import { fakeApi } from './fakeApi';

describe('web settings', () => {
  it('hints at a URL typed as a trusted host and shows the refusal; a key is taken, never shown, and cleared', async () => {
    const api = fakeApi();
    const user = userEvent.setup();
    render(WebSettings, { props: { api, active: true } });

    const hosts = await screen.findByRole('textbox', { name: 'Trusted local hosts' });
    const hostRow = hosts.closest('form') as HTMLElement;
    await user.type(hosts, 'http://wiki.lan/');
    expect(within(hostRow).getByText('Entries are host or host:port, not URLs.')).toBeTruthy();
    await user.click(within(hostRow).getByRole('button', { name: 'Save' }));
    expect((await within(hostRow).findByRole('alert')).textContent).toMatch(/host or host:port/);
    await user.clear(hosts);
    await user.type(hosts, '127.0.0.1:8080{Enter}');
    expect(api.setSectionSetting).toHaveBeenLastCalledWith('web', 'web.allowed_hosts', '127.0.0.1:8080');
    expect(await within(hostRow).findByRole('status')).toHaveProperty('textContent', 'Saved.');

    const key = screen.getByLabelText('Brave API key') as HTMLInputElement;
    expect(key.type).toBe('password');
    const keyRow = key.closest('form') as HTMLElement;
    expect(within(keyRow).queryByRole('button', { name: 'Clear Brave API key' })).toBeNull();
    await user.type(key, 'brv-123{Enter}');
    expect(api.setSectionSetting).toHaveBeenLastCalledWith('web', 'web.brave_api_key', 'brv-123');
    await within(keyRow).findByRole('status');
    expect(key.value).toBe('');
    expect(key.placeholder).toMatch(/^set/);
    await user.click(within(keyRow).getByRole('button', { name: 'Clear Brave API key' }));
    expect(api.setSectionSetting).toHaveBeenLastCalledWith('web', 'web.brave_api_key', '');
    expect(await within(keyRow).findByRole('status')).toHaveProperty('textContent', 'Cleared.');
    expect(key.placeholder).toBe('not set');

    // A yes/no setting is a switch that saves when flipped.
    const headless = screen.getByRole('switch', { name: 'Browser without a window' }) as HTMLInputElement;
    expect(headless.checked).toBe(true);
    await user.click(headless);
    expect(api.setSectionSetting).toHaveBeenLastCalledWith('web', 'browser.headless', 'false');
    await within(headless.closest('form') as HTMLElement).findByRole('status');
    expect(headless.checked).toBe(false);
  });
});
