// The knowledge graph view's shapes, as app/kg.go and backend/memory send them.

/** A node of the graph. agent "" is the global graph every agent sees. */
export interface KgEntity {
  id: number;
  agent: string;
  name: string;
  type: string;
  description?: string;
  valid_from?: string;
  valid_to?: string;
  confidence: number;
  source_chunk?: number;
  /** Set when extraction kept a likely duplicate apart: "maybe the same as entity 4 (Ada)". */
  review?: string;
}

/** A directed, typed edge; depth is the hop the walk found it at. */
export interface KgRelation {
  id: number;
  src: number;
  dst: number;
  src_name: string;
  dst_name: string;
  type: string;
  valid_from?: string;
  valid_to?: string;
  confidence: number;
  source_chunk?: number;
  depth: number;
}

/** A search's answer: the seeds it started from and what the walk reached. */
export interface KgGraph {
  seeds: KgEntity[];
  entities: KgEntity[];
  relations: KgRelation[];
  truncated?: boolean;
}

/** The fixed entity and relation types. */
export interface KgVocabulary {
  entity_types: string[];
  relation_types: string[];
}

/** What SearchKnowledge takes: words, or an entity to start from (entityID ≠ 0). */
export interface KgQuery {
  agent: string;
  query: string;
  entityType: string;
  entityID: number;
  /** 1 to 5 hops. */
  depth: number;
  /** A date (2026-11-01): only facts valid then; "" for now and always. */
  asOf: string;
}
