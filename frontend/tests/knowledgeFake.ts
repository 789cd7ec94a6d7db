// The Skills and knowledge graph part of a fake WarrenApi: skills per agent
// and a small graph in memory with the backend's main rules (types from the
// vocabulary, no self-links, "no entity N", a breadth-first walk in both
// directions up to the depth). knowledgeApi() spreads it over fakeApi().
import { vi } from 'vitest';
import type { KgEntity, KgGraph, KgQuery, KgRelation, KgVocabulary } from '../src/lib/knowledgeTypes';
import type { Skill, SkillDetail, SkillList, SkillProblem } from '../src/lib/skillTypes';
import { fakeApi } from './fakeApi';

export const VOCABULARY: KgVocabulary = {
  entity_types: ['person', 'organization', 'project', 'place', 'product', 'tool', 'concept', 'event', 'document'],
  relation_types: ['works_on', 'works_for', 'member_of', 'knows', 'reports_to', 'part_of', 'located_in', 'uses', 'depends_on', 'owns', 'created', 'attended', 'related_to'],
};

export interface KnowledgeFakeState {
  /** Skills per agent, as AgentSkills lists them. */
  skills: Record<string, Skill[]>;
  problems: Record<string, SkillProblem[]>;
  bodies: Record<string, string>;
  grants: Record<string, string[]>;
  /** Folders importSkill accepts: dir → the skill it holds. */
  folders: Record<string, Pick<Skill, 'name' | 'description'> & { body?: string }>;
  /** Published skills no agent holds any more (revoked from all). */
  published: Record<string, Skill>;
  entities: KgEntity[];
  relations: KgRelation[];
  /** When set, the next graph or skill call rejects with it. */
  failNext: string | null;
  searches: KgQuery[];
}

export function makeSkill(over: Partial<Skill> = {}): Skill {
  return { name: 'release-notes', description: 'Write release notes from merged changes.', dir: '/ws/skills/release-notes', source: 'workspace', ...over };
}

export function makeEntity(over: Partial<KgEntity> = {}): KgEntity {
  return { id: 1, agent: '', name: 'Ada', type: 'person', confidence: 1, ...over };
}

export function knowledgeFake() {
  const state: KnowledgeFakeState = { skills: {}, problems: {}, bodies: {}, grants: {}, folders: {}, published: {}, entities: [], relations: [], failNext: null, searches: [] };
  let nextId = 100;

  /** Every published skill: those agents hold and those no agent holds. */
  function published(): Skill[] {
    const byName = new Map<string, Skill>(Object.entries(state.published));
    for (const s of Object.values(state.skills).flat()) if (s.source === 'managed') byName.set(s.name, s);
    return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  function check() {
    if (state.failNext) {
      const e = state.failNext;
      state.failNext = null;
      throw e;
    }
  }
  const entity = (id: number) => {
    const e = state.entities.find((x) => x.id === id);
    if (!e) throw `not found: no entity ${id}`;
    return e;
  };
  const typeOk = (t: string) => {
    if (!VOCABULARY.entity_types.includes(t)) throw `invalid knowledge graph input: entity type "${t}": use one of ${VOCABULARY.entity_types.join(', ')}`;
  };

  function walk(q: KgQuery): KgGraph {
    if (q.depth < 1 || q.depth > 5) throw `invalid knowledge graph input: max_depth must be between 1 and 5, not ${q.depth}`;
    const visible = state.entities.filter((e) => e.agent === '' || e.agent === q.agent);
    let seeds: KgEntity[];
    if (q.entityID) {
      const e = visible.find((x) => x.id === q.entityID);
      if (!e) throw `not found: no entity ${q.entityID} in agent ${q.agent}'s graph (or the global one)`;
      seeds = [e];
    }
    else if (!q.query.trim()) throw 'invalid knowledge graph input: give a query or an entity_id';
    else {
      const words = q.query.toLowerCase().split(/\s+/);
      seeds = visible.filter((e) => words.some((w) => `${e.name} ${e.description ?? ''}`.toLowerCase().includes(w)));
      if (q.entityType) seeds = seeds.filter((e) => e.type === q.entityType);
    }
    const reached = new Map(seeds.map((s) => [s.id, s]));
    const relations: KgRelation[] = [];
    let frontier = seeds.map((s) => s.id);
    for (let d = 1; d <= q.depth && frontier.length; d++) {
      const found: number[] = [];
      for (const r of state.relations) {
        if (relations.some((x) => x.id === r.id)) continue;
        const from = frontier.includes(r.src) ? r.dst : frontier.includes(r.dst) ? r.src : null;
        if (from === null) continue;
        const other = visible.find((e) => e.id === from);
        if (!other) continue;
        relations.push({ ...r, depth: d });
        if (!reached.has(from)) {
          reached.set(from, other);
          found.push(from);
        }
      }
      frontier = found;
    }
    // Like the backend: the seeds apart, entities only what the walk reached.
    const seedIds = new Set(seeds.map((x) => x.id));
    return structuredClone({ seeds, entities: [...reached.values()].filter((e) => !seedIds.has(e.id)), relations });
  }

  const methods = {
    agentSkills: vi.fn(async (agent: string, _workspace: string): Promise<SkillList> => {
      check();
      return structuredClone({ skills: state.skills[agent] ?? [], problems: state.problems[agent] ?? [] });
    }),
    skill: vi.fn(async (agent: string, name: string): Promise<SkillDetail> => {
      check();
      // Like the backend: a published skill opens from any agent.
      const s = (state.skills[agent] ?? []).find((x) => x.name === name) ?? published().find((x) => x.name === name);
      if (!s) throw 'skill not found';
      return structuredClone({ skill: s, body: state.bodies[name] ?? '', grants: s.source === 'managed' ? (state.grants[name] ?? []) : [] });
    }),
    publishedSkills: vi.fn(async () => structuredClone(published())),
    importSkill: vi.fn(async (dir: string, agent: string): Promise<Skill> => {
      check();
      const f = state.folders[dir];
      if (!f) throw `import skill ${dir}: file does not exist`;
      const old = Object.values(state.skills).flat().find((s) => s.name === f.name && s.source === 'managed');
      const s: Skill = { name: f.name, description: f.description, dir: `/data/skills/${f.name}/v${(old?.version ?? 0) + 1}`, source: 'managed', version: (old?.version ?? 0) + 1 };
      state.bodies[f.name] = f.body ?? '';
      state.grants[f.name] = [...new Set([...(state.grants[f.name] ?? []), agent])];
      for (const a of agent === '*' ? Object.keys(state.skills) : [agent])
        state.skills[a] = [...(state.skills[a] ?? []).filter((x) => x.name !== f.name), s];
      return structuredClone(s);
    }),
    grantSkill: vi.fn(async (name: string, agent: string) => {
      check();
      const s = published().find((x) => x.name === name);
      if (!s) throw `skill not found: no published skill "${name}"`;
      state.grants[name] = [...new Set([...(state.grants[name] ?? []), agent])].sort();
      for (const a of agent === '*' ? Object.keys(state.skills) : [agent])
        if (!(state.skills[a] ?? []).some((x) => x.name === name)) state.skills[a] = [...(state.skills[a] ?? []), s];
    }),
    revokeSkill: vi.fn(async (name: string, agent: string) => {
      check();
      const grants = state.grants[name] ?? [];
      if (agent !== '*' && grants.includes('*')) throw `skill not found: skill ${name} is granted to every agent (*), so ${agent} keeps it`;
      if (!grants.includes(agent)) throw `skill not found: skill ${name} is not granted to ${agent}`;
      const s = published().find((x) => x.name === name);
      if (s) state.published[name] = s;
      state.grants[name] = grants.filter((g) => g !== agent);
      for (const a of agent === '*' ? Object.keys(state.skills) : [agent])
        if (!state.grants[name].includes(a)) state.skills[a] = (state.skills[a] ?? []).filter((x) => x.name !== name);
    }),
    removeSkill: vi.fn(async (name: string) => {
      check();
      delete state.published[name];
      for (const a of Object.keys(state.skills)) state.skills[a] = state.skills[a].filter((s) => !(s.name === name && s.source === 'managed'));
      delete state.grants[name];
    }),
    knowledgeVocabulary: vi.fn(async () => structuredClone(VOCABULARY)),
    searchKnowledge: vi.fn(async (q: KgQuery) => {
      state.searches.push({ ...q });
      check();
      return walk(q);
    }),
    addKnowledgeEntity: vi.fn(async (e: KgEntity) => {
      check();
      typeOk(e.type);
      const added = { ...structuredClone(e), id: nextId++, confidence: e.confidence || 1 };
      state.entities.push(added);
      return structuredClone(added);
    }),
    updateKnowledgeEntity: vi.fn(async (e: KgEntity) => {
      check();
      typeOk(e.type);
      const old = entity(e.id);
      Object.assign(old, structuredClone(e), { review: '' });
      return structuredClone(old);
    }),
    deleteKnowledgeEntity: vi.fn(async (id: number) => {
      check();
      entity(id);
      state.entities = state.entities.filter((e) => e.id !== id);
      state.relations = state.relations.filter((r) => r.src !== id && r.dst !== id);
    }),
    linkKnowledge: vi.fn(async (r: KgRelation) => {
      check();
      if (r.src === r.dst) throw 'invalid knowledge graph input: an entity cannot be related to itself';
      const added = { ...structuredClone(r), id: nextId++, src_name: entity(r.src).name, dst_name: entity(r.dst).name, confidence: 1, depth: 0 };
      state.relations.push(added);
      // Like the backend, the answer carries the ids, not the names.
      return structuredClone({ ...added, src_name: '', dst_name: '' });
    }),
    unlinkKnowledge: vi.fn(async (id: number) => {
      check();
      if (!state.relations.some((r) => r.id === id)) throw `not found: no relation ${id}`;
      state.relations = state.relations.filter((r) => r.id !== id);
    }),
  };

  /** Adds entities and relations (src_name/dst_name filled in). */
  function seed(entities: KgEntity[], relations: Array<Pick<KgRelation, 'id' | 'src' | 'dst' | 'type'> & Partial<KgRelation>> = []) {
    state.entities.push(...structuredClone(entities));
    for (const r of relations)
      state.relations.push({ confidence: 1, depth: 0, src_name: entity(r.src).name, dst_name: entity(r.dst).name, ...r });
  }

  return { state, methods, seed };
}

/** fakeApi() with the Skills and knowledge graph calls; `kg` is the fake's state and helpers. */
export function knowledgeApi(active = 'coding') {
  const kg = knowledgeFake();
  return { ...fakeApi(active), ...kg.methods, kg };
}
