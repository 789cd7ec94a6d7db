import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import SkillsPanel from '../src/components/memory/SkillsPanel.svelte';
import { grantsText, problemSentence, sourceLabel } from '../src/lib/skills';
import { knowledgeApi, makeSkill } from './knowledgeFake';

function seeded() {
  const api = knowledgeApi();
  api.kg.state.skills.default = [
    makeSkill(),
    makeSkill({ name: 'pdf-forms', description: 'Fill PDF forms.', dir: '/data/skills/pdf-forms/v2', source: 'managed', version: 2 }),
  ];
  api.kg.state.skills.reviewer = [makeSkill({ name: 'code-review', description: 'Review a diff.', dir: '/home/me/.agents/skills/code-review', source: 'home' })];
  api.kg.state.problems.default = [
    { dir: '/ws/skills/Bad_Name', error: `skill /ws/skills/Bad_Name: its name "bad-name" must equal its folder's name "Bad_Name"` },
  ];
  api.kg.state.bodies['pdf-forms'] = '# Filling forms\n\nUse **pdftk** to fill `form.pdf`.\n\n<script>alert(1)</script>';
  api.kg.state.grants['pdf-forms'] = ['default', 'reviewer'];
  return api;
}

describe('skills wording', () => {
  it('names every source and explains folders that are not skills', () => {
    expect(['workspace', 'workspace-dot', 'home'].map((source) => sourceLabel({ source }))).toEqual(['workspace', '.agents', 'home']);
    expect(sourceLabel({ source: 'managed', version: 3 })).toBe('published v3');
    expect(problemSentence({ dir: '/ws/skills/x', error: 'skill /ws/skills/x: no SKILL.md in the folder' })).toBe('The folder has no SKILL.md.');
    expect(problemSentence({ dir: '/ws/skills/x', error: 'skill /ws/skills/x: SKILL.md: the frontmatter needs a name' })).toBe('SKILL.md: the frontmatter needs a name.');
    expect(grantsText(['*', 'default'])).toBe('every agent');
    expect(grantsText([])).toBe('no agent');
  });
});

describe('SkillsPanel', () => {
  it('lists the agent’s skills with their source and the folders that are not skills', async () => {
    const api = seeded();
    render(SkillsPanel, { api, active: true });
    const item = await screen.findByRole('button', { name: /release-notes/ });
    expect(item.textContent).toContain('workspace');
    expect(screen.getByRole('button', { name: /pdf-forms/ }).textContent).toContain('published v2');
    const problems = screen.getByRole('region', { name: 'Folders that are not skills' });
    expect(problems.textContent).toContain('Bad_Name');
    expect(problems.textContent).toContain('a skill’s name must equal its folder’s name');
  });

  it('shows a skill’s instructions as safe Markdown, its folder and grants, and removes a published one after confirming', async () => {
    const api = seeded();
    const user = userEvent.setup();
    render(SkillsPanel, { api, active: true });
    await user.click(await screen.findByRole('button', { name: /pdf-forms/ }));
    const detail = await screen.findByRole('region', { name: 'Skill pdf-forms' });
    await within(detail).findByText('Filling forms');
    expect(detail.querySelector('strong')?.textContent).toBe('pdftk');
    expect(detail.querySelector('script')).toBeNull();
    expect(detail.textContent).toContain('/data/skills/pdf-forms/v2');
    expect(detail.textContent).toContain('default, reviewer');
    await user.click(within(detail).getByRole('button', { name: 'Remove pdf-forms' }));
    await user.click(within(detail).getByRole('button', { name: 'Remove skill' }));
    await waitFor(() => expect(api.removeSkill).toHaveBeenCalledWith('pdf-forms'));
    await screen.findByText('Removed pdf-forms.');
    expect(screen.queryByRole('button', { name: /pdf-forms/ })).toBeNull();
  });

  it('offers no Remove for a workspace skill', async () => {
    const api = seeded();
    const user = userEvent.setup();
    render(SkillsPanel, { api, active: true });
    await user.click(await screen.findByRole('button', { name: /release-notes/ }));
    const detail = await screen.findByRole('region', { name: 'Skill release-notes' });
    await within(detail).findByText(/Found in the workspace’s skills\/ folder/);
    expect(within(detail).queryByRole('button', { name: /Remove/ })).toBeNull();
  });

  it('switches agent', async () => {
    const api = seeded();
    const user = userEvent.setup();
    render(SkillsPanel, { api, active: true });
    await screen.findByRole('button', { name: /release-notes/ });
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Agent' }), 'reviewer');
    expect((await screen.findByRole('button', { name: /code-review/ })).textContent).toContain('home');
    expect(api.agentSkills).toHaveBeenLastCalledWith('reviewer', '');
  });

  it('explains where skills come from when an agent has none', async () => {
    const api = knowledgeApi();
    render(SkillsPanel, { api, active: true });
    expect(await screen.findByText('No skills for default')).toBeTruthy();
    expect(screen.getByText('~/.agents/skills/')).toBeTruthy();
  });

  it('imports a folder for every agent, and says why a bad path fails', async () => {
    const api = seeded();
    api.kg.state.folders['/tmp/weekly-report'] = { name: 'weekly-report', description: 'Write the weekly report.', body: 'Steps.' };
    const user = userEvent.setup();
    render(SkillsPanel, { api, active: true });
    await user.click(await screen.findByRole('button', { name: 'Import a skill folder…' }));
    const form = screen.getByRole('form', { name: 'Import a skill folder' });
    await user.type(within(form).getByLabelText('Skill folder'), '/nope');
    await user.click(within(form).getByRole('button', { name: 'Import' }));
    expect((await within(form).findByRole('alert')).textContent).toMatch(/folder \/nope does not exist/i);
    await user.clear(within(form).getByLabelText('Skill folder'));
    await user.type(within(form).getByLabelText('Skill folder'), '/tmp/weekly-report');
    await user.click(within(form).getByRole('button', { name: 'Import' }));
    await screen.findByText('Imported weekly-report (v1) for every agent.');
    expect(api.importSkill).toHaveBeenCalledWith('/tmp/weekly-report', '*');
    expect(await screen.findByRole('region', { name: 'Skill weekly-report' })).toBeTruthy();
  });
});

describe('SkillsPanel grants', () => {
  it('grants a published skill to another agent after the fact and revokes it', async () => {
    const api = seeded();
    api.kg.state.grants['pdf-forms'] = ['default'];
    const user = userEvent.setup();
    render(SkillsPanel, { api, active: true });
    await user.click(await screen.findByRole('button', { name: /pdf-forms/ }));
    const detail = await screen.findByRole('region', { name: 'Skill pdf-forms' });
    const grants = await within(detail).findByRole('group', { name: 'Agents with pdf-forms' });
    const reviewer = within(grants).getByRole('checkbox', { name: 'reviewer' }) as HTMLInputElement;
    expect(reviewer.checked).toBe(false);
    await user.click(reviewer);
    await waitFor(() => expect(api.grantSkill).toHaveBeenCalledWith('pdf-forms', 'reviewer'));
    await waitFor(() => expect(within(detail).getByText('default, reviewer')).toBeTruthy());
    expect(api.kg.state.skills.reviewer.some((s) => s.name === 'pdf-forms')).toBe(true);

    // Every agent: the others are covered and locked.
    await user.click(within(grants).getByRole('checkbox', { name: 'every agent' }));
    await waitFor(() => expect(api.grantSkill).toHaveBeenCalledWith('pdf-forms', '*'));
    await waitFor(() => expect((within(grants).getByRole('checkbox', { name: 'default' }) as HTMLInputElement).disabled).toBe(true));
    expect(within(detail).getByText(/Every agent has it/)).toBeTruthy();
    await user.click(within(grants).getByRole('checkbox', { name: 'every agent' }));
    await waitFor(() => expect(api.revokeSkill).toHaveBeenCalledWith('pdf-forms', '*'));

    // Revoking the agent the view is for: the skill moves to "not for default", still open.
    await waitFor(() => expect((within(grants).getByRole('checkbox', { name: 'default' }) as HTMLInputElement).disabled).toBe(false));
    await user.click(within(grants).getByRole('checkbox', { name: 'default' }));
    await waitFor(() => expect(api.revokeSkill).toHaveBeenCalledWith('pdf-forms', 'default'));
    const others = await screen.findByRole('region', { name: 'Published skills default does not have' });
    expect(within(others).getByRole('button', { name: /pdf-forms/ })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Skill pdf-forms' })).toBeTruthy();
  });

  it('says why a grant change failed', async () => {
    const api = seeded();
    const user = userEvent.setup();
    render(SkillsPanel, { api, active: true });
    await user.click(await screen.findByRole('button', { name: /pdf-forms/ }));
    const grants = await screen.findByRole('group', { name: 'Agents with pdf-forms' });
    api.kg.state.failNext = 'no such agent: "reviewer"';
    await user.click(within(grants).getByRole('checkbox', { name: 'reviewer' }));
    expect((await within(grants).findByRole('alert')).textContent).toMatch(/no such agent/);
  });
});
