// The real WarrenApi's Skills and knowledge graph calls (issue 13 §6),
// spread into wailsApi by api.ts.
import * as App from '../../wailsjs/go/app/App';
import type { KgEntity, KgGraph, KgQuery, KgRelation, KgVocabulary } from './knowledgeTypes';
import type { Skill, SkillDetail, SkillList } from './skillTypes';

/** The Skills view's and the knowledge graph's calls. */
export interface KnowledgeApi {
  /** An agent's skills and the folders that are not valid ones ("" workspace: Warren's). */
  agentSkills(agent: string, workspace: string): Promise<SkillList>;
  /** One of an agent's skills with its instructions and grants. */
  skill(agent: string, name: string): Promise<SkillDetail>;
  publishedSkills(): Promise<Skill[]>;
  /** Publishes a skill folder for one agent, or "*" for every agent. */
  importSkill(dir: string, agent: string): Promise<Skill>;
  /** Deletes a published skill (every version). */
  removeSkill(name: string): Promise<void>;
  /** Gives a published skill to an agent after the fact ("*": every agent). */
  grantSkill(name: string, agent: string): Promise<void>;
  /** Takes a published skill away from an agent ("*": the every-agent grant). */
  revokeSkill(name: string, agent: string): Promise<void>;
  knowledgeVocabulary(): Promise<KgVocabulary>;
  searchKnowledge(q: KgQuery): Promise<KgGraph>;
  /** agent "" adds to the global graph. */
  addKnowledgeEntity(e: KgEntity): Promise<KgEntity>;
  updateKnowledgeEntity(e: KgEntity): Promise<KgEntity>;
  deleteKnowledgeEntity(id: number): Promise<void>;
  linkKnowledge(r: KgRelation): Promise<KgRelation>;
  unlinkKnowledge(id: number): Promise<void>;
}

export function knowledgeCalls(): KnowledgeApi {
  return {
    agentSkills: async (agent, workspace) => {
      const l = (await App.AgentSkills(agent, workspace)) as unknown as SkillList;
      return { skills: l?.skills ?? [], problems: l?.problems ?? [] };
    },
    skill: async (agent, name) => {
      const d = (await App.Skill(agent, name)) as unknown as SkillDetail;
      return { ...d, grants: d.grants ?? [] };
    },
    publishedSkills: async () => ((await App.PublishedSkills()) ?? []) as unknown as Skill[],
    importSkill: async (dir, agent) => (await App.ImportSkill(dir, agent)) as unknown as Skill,
    removeSkill: (name) => App.RemoveSkill(name),
    grantSkill: (name, agent) => App.GrantSkill(name, agent),
    revokeSkill: (name, agent) => App.RevokeSkill(name, agent),
    knowledgeVocabulary: async () => (await App.KnowledgeVocabulary()) as unknown as KgVocabulary,
    searchKnowledge: async (q) => {
      const g = (await App.SearchKnowledge(q.agent, q.query, q.entityType, q.entityID, q.depth, q.asOf)) as unknown as KgGraph;
      return { ...g, seeds: g?.seeds ?? [], entities: g?.entities ?? [], relations: g?.relations ?? [] };
    },
    addKnowledgeEntity: async (e) => (await App.AddKnowledgeEntity(e as never)) as unknown as KgEntity,
    updateKnowledgeEntity: async (e) => (await App.UpdateKnowledgeEntity(e as never)) as unknown as KgEntity,
    deleteKnowledgeEntity: (id) => App.DeleteKnowledgeEntity(id),
    linkKnowledge: async (r) => (await App.LinkKnowledge(r as never)) as unknown as KgRelation,
    unlinkKnowledge: (id) => App.UnlinkKnowledge(id),
  };
}

