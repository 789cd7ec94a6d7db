// The Schedules part of the fake WarrenApi (fakeApi.ts spreads it in): cron
// jobs checked, stored and run like warren's cron bindings.
import { vi } from 'vitest';
import type { FakeState } from './fakeApi';
import { ZERO_TIME, makeJob, scheduleError } from './fixtures';
import type { CronJob, CronJobInput } from '../src/lib/types';

export function scheduleFakes(state: FakeState) {
  let cronSeq = 0;
  function checkJob(in_: CronJobInput) {
    const errs: string[] = [];
    if (!in_.agent.trim()) errs.push('agent: choose the agent that runs the prompt');
    else if (!state.agents.some((a) => a.key === in_.agent)) errs.push(`agent: no agent ${JSON.stringify(in_.agent)}`);
    if (in_.name.length > 100) errs.push(`name: ${in_.name.length} characters is too long (at most 100)`);
    const se = scheduleError(in_.schedule);
    if (se) errs.push(`schedule: ${se}`);
    if (!in_.prompt.trim()) errs.push('prompt: write the instruction the agent runs');
    if (errs.length) throw errs.join('\n');
  }
  function job(id: string): CronJob {
    const j = state.cron.find((x) => x.id === id);
    if (!j) throw `cron job not found: ${id}`;
    return j;
  }

  return {
    cronJobs: vi.fn(async () => structuredClone(state.cron)),
    // Like warren.AddCronJob: every field problem at once, one "field: message" line each.
    addCronJob: vi.fn(async (in_: CronJobInput) => {
      checkJob(in_);
      const id = `cron-${++cronSeq}`;
      const j = makeJob({ ...in_, id, name: in_.name.trim() || id });
      state.cron = [...state.cron, j].sort((a, b) => a.name.localeCompare(b.name));
      return structuredClone(j);
    }),
    // Like warren.UpdateCronJob: AddCronJob's checks; enabled state kept, next run from now.
    updateCronJob: vi.fn(async (id: string, in_: CronJobInput) => {
      const j = job(id);
      if (j.last_status === 'running') throw `cron job is already running: wait for ${j.name} to finish before editing it`;
      checkJob(in_);
      Object.assign(j, { ...in_, name: in_.name.trim() || id, next_run: j.enabled ? new Date(Date.now() + 7_200_000).toISOString() : ZERO_TIME });
      state.cron = [...state.cron].sort((a, b) => a.name.localeCompare(b.name));
      return structuredClone(j);
    }),
    cronSchedulePreview: vi.fn(async (schedule: string, n: number) => {
      const se = scheduleError(schedule);
      if (se) throw `schedule: ${se}`;
      const base = /^at /i.test(schedule.trim()) ? Date.parse(schedule.trim().slice(3)) : Date.now() + 3_600_000;
      return Array.from({ length: /^at /i.test(schedule.trim()) ? 1 : n }, (_, i) => new Date(base + i * 86_400_000).toISOString());
    }),
    setCronJobEnabled: vi.fn(async (id: string, on: boolean) => {
      const j = job(id);
      Object.assign(j, { enabled: on, next_run: on ? new Date(Date.now() + 3_600_000).toISOString() : ZERO_TIME });
      return structuredClone(j);
    }),
    deleteCronJob: vi.fn(async (id: string) => {
      job(id);
      state.cron = state.cron.filter((j) => j.id !== id);
    }),
    // Like the scheduler picking the job up at once: it is running until finishCronRun.
    runCronJobNow: vi.fn(async (id: string) => {
      const j = job(id);
      if (j.last_status === 'running') throw `cron job is already running: ${j.name}`;
      if (!j.enabled) throw `cron job is disabled: enable ${j.name} to run it`;
      Object.assign(j, { last_status: 'running', last_run: new Date().toISOString(), last_result: '' });
      return structuredClone(j);
    }),
    finishCronRun(id: string, status: 'ok' | 'error', result: string, session = '') {
      Object.assign(job(id), { last_status: status, last_result: result, last_session: session, next_run: new Date(Date.now() + 86_400_000).toISOString() });
    },
  };
}
