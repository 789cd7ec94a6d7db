// The knowledge graph view's logic: a deterministic radial layout (seeds in
// the centre, each further hop on its own ring), colours per entity type,
// and the checks a manual edit needs before it reaches the backend.
import type { KgEntity, KgGraph, KgRelation } from './knowledgeTypes';

/** A node placed on the drawing. */
export interface PlacedNode {
  id: number;
  entity: KgEntity;
  x: number;
  y: number;
  /** 0 for a seed, else hops from the nearest seed. */
  hop: number;
}

/** An edge between two placed nodes, with where its label goes. */
export interface PlacedEdge {
  id: number;
  relation: KgRelation;
  source: PlacedNode;
  target: PlacedNode;
  labelX: number;
  labelY: number;
}

export interface Layout {
  nodes: PlacedNode[];
  edges: PlacedEdge[];
  /** The drawing's box around the nodes and their labels: viewBox = `${x} ${y} ${width} ${height}`. */
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A node's radius; rings keep at least NODE_GAP between neighbours' centres. */
export const NODE_RADIUS = 14;
const NODE_GAP = NODE_RADIUS * 2 + 46; // room for a label under each node
const RING_STEP = 110;
const MARGIN = 60;
const MIN_BOX = 320;

/**
 * Every entity on show: the seeds, then what the walk reached. The backend
 * lists the seeds apart (Graph.entities holds only the others); a seed that
 * appears in both is kept once.
 */
export function allEntities(g: KgGraph): KgEntity[] {
  const seen = new Set<number>();
  const out: KgEntity[] = [];
  for (const e of [...g.seeds, ...g.entities])
    if (!seen.has(e.id)) {
      seen.add(e.id);
      out.push(e);
    }
  return out;
}

/** Hops from the seeds over relations in either direction (BFS); unreachable entities get maxHop + 1. */
export function hops(g: KgGraph): Map<number, number> {
  const out = new Map<number, number>();
  const entities = allEntities(g);
  const ids = new Set(entities.map((e) => e.id));
  const next = new Map<number, number[]>();
  for (const r of g.relations) {
    if (!ids.has(r.src) || !ids.has(r.dst)) continue;
    next.set(r.src, [...(next.get(r.src) ?? []), r.dst]);
    next.set(r.dst, [...(next.get(r.dst) ?? []), r.src]);
  }
  let frontier = g.seeds.map((s) => s.id).filter((id) => ids.has(id));
  for (const id of frontier) out.set(id, 0);
  for (let d = 1; frontier.length; d++) {
    const found: number[] = [];
    for (const id of frontier)
      for (const n of next.get(id) ?? [])
        if (!out.has(n)) {
          out.set(n, d);
          found.push(n);
        }
    frontier = found;
  }
  const far = Math.max(0, ...out.values()) + 1;
  for (const e of entities) if (!out.has(e.id)) out.set(e.id, far);
  return out;
}

/** The smallest radius at which n nodes fit on a ring NODE_GAP apart. */
const fitRadius = (n: number) => (n <= 1 ? 0 : NODE_GAP / (2 * Math.sin(Math.PI / n)));

/**
 * Places the graph: seeds in the centre (one seed exactly there, several on
 * a small ring), hop-1 entities on the next ring, hop-2 on the one after, and
 * so on. Each ring is far enough out to hold its nodes NODE_GAP apart and
 * RING_STEP beyond the previous one. Within a ring, nodes follow the angle of
 * their parent on the inner ring (then the name) so edges cross little. The
 * same graph always gives the same positions.
 */
export function layoutGraph(g: KgGraph): Layout {
  const hop = hops(g);
  const entities = allEntities(g);
  const rings: KgEntity[][] = [];
  for (const e of entities) (rings[hop.get(e.id)!] ??= []).push(e);
  const angle = new Map<number, number>();
  const placed = new Map<number, PlacedNode>();
  let radius = 0;
  let centred = false; // the previous ring was one node in the centre: its angle means nothing
  for (let h = 0; h < rings.length; h++) {
    const ring = rings[h] ?? [];
    if (ring.length === 0) continue;
    // Where a node would like to be: the (circular) mean angle of its neighbours already placed.
    const target = new Map<number, number>();
    for (const e of ring) {
      let sx = 0;
      let sy = 0;
      for (const r of g.relations) {
        const other = r.src === e.id ? r.dst : r.dst === e.id ? r.src : null;
        if (other === null || !angle.has(other)) continue;
        sx += Math.cos(angle.get(other)!);
        sy += Math.sin(angle.get(other)!);
      }
      target.set(e.id, sx || sy ? Math.atan2(sy, sx) : 0);
    }
    const sorted = [...ring].sort((a, b) => target.get(a.id)! - target.get(b.id)! || a.name.localeCompare(b.name) || a.id - b.id);
    const n = sorted.length;
    const single = h === 0 && n === 1;
    radius = single ? 0 : Math.max(h === 0 ? NODE_GAP : radius + RING_STEP, fitRadius(n));
    let angles: number[];
    if (single) angles = [0];
    else if (h === 0 || centred) angles = sorted.map((_, i) => -Math.PI / 2 + (2 * Math.PI * i) / n);
    else angles = packAngles(sorted.map((e) => target.get(e.id)!), radius);
    centred = single;
    sorted.forEach((e, i) => {
      const a = angles[i];
      angle.set(e.id, a);
      placed.set(e.id, { id: e.id, entity: e, hop: h, x: round(radius * Math.cos(a)), y: round(radius * Math.sin(a)) });
    });
  }
  const nodes = entities.map((e) => placed.get(e.id)!);
  const edges: PlacedEdge[] = [];
  for (const r of g.relations) {
    const source = placed.get(r.src);
    const target = placed.get(r.dst);
    if (!source || !target) continue;
    edges.push({ id: r.id, relation: r, source, target, labelX: round((source.x + target.x) / 2), labelY: round((source.y + target.y) / 2) });
  }
  return { nodes, edges, ...box(nodes) };
}

/** The box around the nodes with room for labels, at least MIN_BOX wide and high (a lone node is not drawn huge). */
function box(nodes: PlacedNode[]): Pick<Layout, 'x' | 'y' | 'width' | 'height'> {
  const xs = nodes.map((n) => n.x);
  const ys = nodes.map((n) => n.y);
  const [x0, x1, y0, y1] = xs.length ? [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)] : [0, 0, 0, 0];
  const pad = NODE_RADIUS + MARGIN;
  const width = Math.max(MIN_BOX, x1 - x0 + 2 * pad);
  const height = Math.max(MIN_BOX, y1 - y0 + 2 * pad);
  return { x: round((x0 + x1) / 2 - width / 2), y: round((y0 + y1) / 2 - height / 2), width: round(width), height: round(height) };
}

/**
 * Angles on a ring of this radius as close to the (sorted) targets as the
 * spacing allows: at least a chord of NODE_GAP and half an even share apart,
 * the group then shifted so its mean matches the targets' mean. When that
 * would not close around the circle, even spacing from the first target.
 */
function packAngles(targets: number[], radius: number): number[] {
  const n = targets.length;
  const chord = 2 * Math.asin(Math.min(1, NODE_GAP / (2 * radius)));
  const gap = Math.max(chord, Math.PI / n);
  const out = [targets[0]];
  for (let i = 1; i < n; i++) out.push(Math.max(targets[i], out[i - 1] + gap));
  if (n > 1 && out[n - 1] - out[0] > 2 * Math.PI - gap) return targets.map((_, i) => targets[0] + (2 * Math.PI * i) / n);
  const shift = targets.reduce((a, b) => a + b, 0) / n - out.reduce((a, b) => a + b, 0) / n;
  return out.map((a) => a + shift);
}

const round = (n: number) => Math.round(n * 10) / 10;

/** A colour per entity type (readable on light and dark backgrounds). */
export const TYPE_COLOURS: Record<string, string> = {
  person: '#4f8fe8',
  organization: '#d9822b',
  project: '#2fa36b',
  place: '#b065d6',
  product: '#d65a7a',
  tool: '#2aa3b5',
  concept: '#b59a2a',
  event: '#e0603f',
  document: '#7d8a99',
};

export const typeColour = (type: string) => TYPE_COLOURS[type] ?? '#8a8a8a';

/** The relation type in words ("works_on" → "works on"). */
export const relationWords = (type: string) => type.replace(/_/g, ' ');

/** The relations touching an entity. */
export const relationsOf = (g: KgGraph, id: number) => g.relations.filter((r) => r.src === id || r.dst === id);

/** An entity's validity as words ("from 2024-01-01 to 2025-06-30"), "" when always. */
export function validity(e: Pick<KgEntity, 'valid_from' | 'valid_to'>): string {
  const d = (s?: string) => (s ? s.slice(0, 10) : '');
  const f = d(e.valid_from);
  const t = d(e.valid_to);
  if (f && t) return `from ${f} to ${t}`;
  if (f) return `since ${f}`;
  if (t) return `until ${t}`;
  return '';
}

/** The review note as a badge text: "maybe a duplicate of Ada (entity 4)". */
export function reviewBadge(review: string): string {
  const m = review.match(/maybe the same as entity (\d+) \((.*)\)$/);
  if (m) return `maybe a duplicate of ${m[2]} (entity ${m[1]})`;
  return `maybe a duplicate of ${review.replace(/^maybe (the same as|a duplicate of) /, '')}`;
}

/** What keeps an entity draft from being saved, or "" when it can be. */
export function entityProblem(e: Pick<KgEntity, 'name' | 'type' | 'valid_from' | 'valid_to'>, types: string[]): string {
  const name = e.name.trim();
  if (!name) return 'Give the entity a name.';
  if (name.length > 200) return 'The name is too long: at most 200 characters.';
  if (!types.includes(e.type)) return 'Choose a type.';
  if (e.valid_from && e.valid_to && e.valid_from > e.valid_to) return 'The start date is after the end date.';
  return '';
}
