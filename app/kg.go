package app

import "github.com/warren-dev/warren/backend/memory"

// The knowledge graph view's calls (issue 13 §6).

// GraphVocabulary is the fixed entity and relation types.
type GraphVocabulary struct {
	EntityTypes   []string `json:"entity_types"`
	RelationTypes []string `json:"relation_types"`
}

// KnowledgeVocabulary returns the types the graph accepts.
func (a *App) KnowledgeVocabulary() GraphVocabulary {
	return GraphVocabulary{EntityTypes: memory.EntityTypes, RelationTypes: memory.RelationTypes}
}

// SearchKnowledge searches the agent's graph (and the global one) and
// walks it: by words, or from an entity id when entityID is not 0.
func (a *App) SearchKnowledge(agent, query, entityType string, entityID int64, depth int, asOf string) (memory.Graph, error) {
	if agent == "" {
		agent = "default"
	}
	return a.core.Memory().SearchGraph(a.context(), memory.GraphQuery{Agent: agent, Text: query, EntityType: entityType,
		EntityID: entityID, MaxDepth: depth, AsOf: asOf})
}

// AddKnowledgeEntity adds an entity by hand ("" agent: global).
func (a *App) AddKnowledgeEntity(e memory.Entity) (memory.Entity, error) {
	return a.core.Memory().AddEntity(a.context(), e)
}

// UpdateKnowledgeEntity changes an entity (and clears its review flag).
func (a *App) UpdateKnowledgeEntity(e memory.Entity) (memory.Entity, error) {
	return a.core.Memory().UpdateEntity(a.context(), e)
}

// DeleteKnowledgeEntity removes an entity with its relations.
func (a *App) DeleteKnowledgeEntity(id int64) error {
	return a.core.Memory().DeleteEntity(a.context(), id)
}

// LinkKnowledge adds a relation.
func (a *App) LinkKnowledge(r memory.Relation) (memory.Relation, error) {
	return a.core.Memory().Link(a.context(), r)
}

// UnlinkKnowledge removes a relation.
func (a *App) UnlinkKnowledge(id int64) error { return a.core.Memory().Unlink(a.context(), id) }
