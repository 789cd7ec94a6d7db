// The real WarrenApi's Skills and knowledge graph calls (issue 13 §6),
// spread into wailsApi by api.ts.
import * as App from '../../wailsjs/go/app/App';
import type { WarrenApi } from './api';
import type { KgEntity, KgGraph, KgRelation, KgVocabulary } from './knowledgeTypes';
import type { Skill, SkillDetail, SkillList } from './skillTypes';

/** The Skills view's and the knowledge graph's calls. */
export function knowledgeCalls(): Pick<
  WarrenApi,
  | 'agentSkills'
  | 'skill'
  | 'publishedSkills'
  | 'importSkill'
  | 'removeSkill'
  | 'grantSkill'
  | 'revokeSkill'
  | 'knowledgeVocabulary'
  | 'searchKnowledge'
  | 'addKnowledgeEntity'
  | 'updateKnowledgeEntity'
  | 'deleteKnowledgeEntity'
  | 'linkKnowledge'
  | 'unlinkKnowledge'
> {
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

