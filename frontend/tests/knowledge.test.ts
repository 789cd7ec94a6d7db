import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import KnowledgeGraph from '../src/components/memory/KnowledgeGraph.svelte';
import { humanError } from '../src/lib/errors';
import { NODE_RADIUS, entityProblem, hops, layoutGraph, reviewBadge, validity } from '../src/lib/knowledge';
import type { KgEntity, KgGraph, KgRelation } from '../src/lib/knowledgeTypes';
import { knowledgeApi, makeEntity } from './knowledgeFake';

const ent = (id: number, name: string, type = 'person'): KgEntity => makeEntity({ id, name, type });
const rel = (id: number, src: number, dst: number, type = 'knows'): KgRelation => ({ id, src, dst, type, src_name: '', dst_name: '', confidence: 1, depth: 1 });

/** A seed with 6 neighbours, 3 of which have 2 more each, and one entity nothing reaches. */
function sample(): KgGraph {
  const entities = [ent(1, 'Ada')];
  const relations: KgRelation[] = [];
  for (let i = 0; i < 6; i++) {
    entities.push(ent(10 + i, `N${i}`, 'project'));
    relations.push(rel(100 + i, 1, 10 + i, 'works_on'));
  }
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 2; j++) {
      entities.push(ent(20 + i * 2 + j, `M${i}${j}`, 'tool'));
      relations.push(rel(200 + i * 2 + j, 20 + i * 2 + j, 10 + i, 'part_of'));
    }
  entities.push(ent(99, 'Lonely', 'concept'));
  return { seeds: [entities[0]], entities, relations };
}

const dist = (a: { x: number; y: number }, b: { x: number; y: number }) => Math.hypot(a.x - b.x, a.y - b.y);

describe('graph layout', () => {
  it('counts hops from the seeds in both directions', () => {
    const h = hops(sample());
    expect([h.get(1), h.get(10), h.get(20), h.get(99)]).toEqual([0, 1, 2, 3]);
  });

  it('puts a lone seed in the centre and each hop on its own ring, further out', () => {
    const l = layoutGraph(sample());
    const at = (id: number) => l.nodes.find((n) => n.id === id)!;
    expect([at(1).x, at(1).y]).toEqual([0, 0]);
    const r1 = l.nodes.filter((n) => n.hop === 1).map((n) => Math.hypot(n.x, n.y));
    const r2 = l.nodes.filter((n) => n.hop === 2).map((n) => Math.hypot(n.x, n.y));
    expect(Math.max(...r1) - Math.min(...r1)).toBeLessThan(0.5);
    expect(Math.min(...r2)).toBeGreaterThan(Math.max(...r1) + 2 * NODE_RADIUS);
    expect(Math.hypot(at(99).x, at(99).y)).toBeGreaterThan(Math.max(...r2));
  });

  it('is deterministic, keeps nodes apart and draws edges only between placed nodes', () => {
    const g = sample();
    expect(layoutGraph(structuredClone(g))).toEqual(layoutGraph(g));
    const l = layoutGraph(g);
    expect(l.nodes).toHaveLength(g.entities.length);
    for (let i = 0; i < l.nodes.length; i++)
      for (let j = i + 1; j < l.nodes.length; j++) expect(dist(l.nodes[i], l.nodes[j])).toBeGreaterThan(2 * NODE_RADIUS);
    const ids = new Set(l.nodes.map((n) => n.id));
    expect(l.edges).toHaveLength(g.relations.length);
    for (const e of l.edges) expect(ids.has(e.source.id) && ids.has(e.target.id)).toBe(true);
    // Everything fits in the box.
    for (const n of l.nodes) {
      expect(n.x - NODE_RADIUS).toBeGreaterThan(l.x);
      expect(n.x + NODE_RADIUS).toBeLessThan(l.x + l.width);
      expect(n.y - NODE_RADIUS).toBeGreaterThan(l.y);
      expect(n.y + NODE_RADIUS).toBeLessThan(l.y + l.height);
    }
  });

  it('spreads several seeds on a small ring and grows rings that hold many nodes', () => {
    const seeds = [ent(1, 'A'), ent(2, 'B'), ent(3, 'C')];
    const many = Array.from({ length: 40 }, (_, i) => ent(10 + i, `X${i}`));
    const g: KgGraph = { seeds, entities: [...seeds, ...many], relations: many.map((m, i) => rel(100 + i, 1 + (i % 3), m.id)) };
    const l = layoutGraph(g);
    for (let i = 0; i < l.nodes.length; i++)
      for (let j = i + 1; j < l.nodes.length; j++) expect(dist(l.nodes[i], l.nodes[j])).toBeGreaterThan(2 * NODE_RADIUS);
  });

  it('puts a node near its parent, not across the drawing', () => {
    const g: KgGraph = {
      seeds: [ent(1, 'Grace'), ent(2, 'Warren')],
      entities: [ent(3, 'Golang'), ent(4, 'Ada')],
      relations: [rel(1, 1, 2), rel(2, 2, 3), rel(3, 4, 2)],
    };
    const l = layoutGraph(g);
    const at = (id: number) => l.nodes.find((n) => n.id === id)!;
    for (const child of [3, 4]) expect(dist(at(child), at(2))).toBeLessThan(dist(at(child), at(1)));
    expect(dist(at(3), at(4))).toBeGreaterThan(2 * NODE_RADIUS);
  });

  it('places seeds the backend lists apart from the entities, once', () => {
    const l = layoutGraph({ seeds: [ent(1, 'A')], entities: [ent(2, 'B')], relations: [rel(1, 1, 2)] });
    expect(l.nodes.map((n) => [n.id, n.hop])).toEqual([
      [1, 0],
      [2, 1],
    ]);
    expect(l.edges).toHaveLength(1);
  });

  it('drops relations to entities that are not in the graph', () => {
    const l = layoutGraph({ seeds: [ent(1, 'A')], entities: [ent(1, 'A'), ent(2, 'B')], relations: [rel(1, 1, 2), rel(2, 1, 77)] });
    expect(l.edges.map((e) => e.id)).toEqual([1]);
  });
});

describe('knowledge wording', () => {
  it('words validity, review flags and draft problems', () => {
    expect(validity({ valid_from: '2024-01-01T00:00:00Z', valid_to: '2025-06-30' })).toBe('from 2024-01-01 to 2025-06-30');
    expect(validity({ valid_to: '2025-06-30' })).toBe('until 2025-06-30');
    expect(validity({})).toBe('');
    expect(reviewBadge('maybe the same as entity 4 (Ada Lovelace)')).toBe('maybe a duplicate of Ada Lovelace (entity 4)');
    expect(entityProblem({ name: ' ', type: 'person' }, ['person'])).toBe('Give the entity a name.');
    expect(entityProblem({ name: 'X', type: 'alien' }, ['person'])).toBe('Choose a type.');
    expect(entityProblem({ name: 'X', type: 'person', valid_from: '2025-01-02', valid_to: '2025-01-01' }, ['person'])).toBe('The start date is after the end date.');
  });

  it('turns the graph’s and skills’ errors into sentences', () => {
    expect(humanError('AddKnowledgeEntity: invalid knowledge graph input: entity type "alien": use one of person, project').sentence).toBe(
      '“alien” is not an entity type: use one of person, project.',
    );
    expect(humanError('not found: no entity 42').sentence).toBe('Entity 42 no longer exists: it may have been deleted or merged.');
    expect(humanError(`skill /ws/skills/Foo: its name "foo" must equal its folder's name "Foo"`).sentence).toBe(
      'The skill’s SKILL.md names it “foo”, but its folder is “Foo”: a skill’s name must equal its folder’s name.',
    );
    expect(humanError('invalid knowledge graph input: an entity cannot be related to itself').sentence).toMatch(/cannot be linked to itself/);
  });
});

function seeded() {
  const api = knowledgeApi();
  api.kg.seed(
    [
      makeEntity({ id: 1, name: 'Ada', type: 'person', description: 'Leads the compiler work', agent: 'default' }),
      makeEntity({ id: 2, name: 'Warren', type: 'project', valid_from: '2024-01-01' }),
      makeEntity({ id: 3, name: 'Go', type: 'tool' }),
      makeEntity({ id: 4, name: 'Ada L.', type: 'person', review: 'maybe the same as entity 1 (Ada)' }),
      makeEntity({ id: 5, name: 'Secret', type: 'concept', agent: 'reviewer' }),
    ],
    [
      { id: 11, src: 1, dst: 2, type: 'works_on' },
      { id: 12, src: 2, dst: 3, type: 'uses' },
      { id: 13, src: 4, dst: 2, type: 'works_on' },
      { id: 14, src: 5, dst: 2, type: 'related_to' },
    ],
  );
  return api;
}

async function searchFor(user: ReturnType<typeof userEvent.setup>, words: string) {
  const box = await screen.findByRole('searchbox', { name: 'Search words' });
  await user.clear(box);
  await user.type(box, `${words}{Enter}`);
}

const node = (id: number) => document.querySelector<SVGGElement>(`[data-testid="kg-drawing"] [data-entity="${id}"]`);

describe('KnowledgeGraph', () => {
  it('explains itself before a search, then draws and lists what it found', async () => {
    const api = seeded();
    const user = userEvent.setup();
    render(KnowledgeGraph, { api, active: true });
    expect(await screen.findByText('Look through what default knows')).toBeTruthy();
    await searchFor(user, 'Ada');
    await waitFor(() => expect(node(1)).not.toBeNull());
    expect(api.kg.state.searches.at(-1)).toEqual({ agent: 'default', query: 'Ada', entityType: '', entityID: 0, depth: 2, asOf: '' });
    // The seeds, their neighbours at depth 2, edges labelled; nothing of the reviewer's.
    expect([1, 2, 3, 4].every((id) => node(id))).toBe(true);
    expect(node(5)).toBeNull();
    const drawing = screen.getByTestId('kg-drawing');
    expect([...drawing.querySelectorAll('.edge text')].map((t) => t.textContent).sort()).toEqual(['uses', 'works on', 'works on']);
    expect(node(1)!.querySelector('circle')!.getAttribute('fill')).not.toBe(node(2)!.querySelector('circle')!.getAttribute('fill'));
    const links = screen.getByRole('region', { name: 'Links' });
    expect(links.textContent).toContain('Ada works on Warren');
    const entities = screen.getByRole('region', { name: 'Entities' });
    expect(within(entities).getByText('maybe a duplicate of Ada (entity 1)')).toBeTruthy();
    expect(entities.textContent).toContain('Valid since 2024-01-01');
  });

  it('passes the type, depth and date filters', async () => {
    const api = seeded();
    const user = userEvent.setup();
    render(KnowledgeGraph, { api, active: true });
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Entity type' }), 'project');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Depth' }), '1');
    await fireEvent.input(screen.getByLabelText('As of'), { target: { value: '2025-03-01' } });
    await searchFor(user, 'Warren');
    await waitFor(() => expect(api.kg.state.searches.at(-1)).toEqual({ agent: 'default', query: 'Warren', entityType: 'project', entityID: 0, depth: 1, asOf: '2025-03-01' }));
  });

  it('shows a node’s details on hover and focus, and recenters on click and on Enter', async () => {
    const api = seeded();
    const user = userEvent.setup();
    render(KnowledgeGraph, { api, active: true });
    await searchFor(user, 'Ada');
    await waitFor(() => expect(node(1)).not.toBeNull());
    await fireEvent.mouseEnter(node(1)!);
    expect((await screen.findByTestId('kg-peek')).textContent).toContain('Leads the compiler work');
    node(4)!.focus();
    await waitFor(() => expect(screen.getByTestId('kg-peek').textContent).toContain('maybe a duplicate of Ada'));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(api.kg.state.searches.at(-1)).toMatchObject({ entityID: 4, query: '' }));
    expect(await screen.findByText('Ada L.', { selector: '.summary b' })).toBeTruthy();
    await user.click(node(3)!);
    await waitFor(() => expect(api.kg.state.searches.at(-1)).toMatchObject({ entityID: 3 }));
  });

  it('moves through the nodes with Tab', async () => {
    const api = seeded();
    const user = userEvent.setup();
    render(KnowledgeGraph, { api, active: true });
    await searchFor(user, 'Go');
    await waitFor(() => expect(node(3)).not.toBeNull());
    node(3)!.focus();
    await user.tab();
    expect((document.activeElement as Element).getAttribute('data-entity')).not.toBeNull();
  });

  it('adds an entity, then centres on it; refuses a bad draft in the form', async () => {
    const api = seeded();
    const user = userEvent.setup();
    render(KnowledgeGraph, { api, active: true });
    await user.click(await screen.findByRole('button', { name: '+ Entity' }));
    const form = screen.getByRole('form', { name: 'Add an entity' });
    await user.click(within(form).getByRole('button', { name: 'Add entity' }));
    expect(within(form).getByRole('alert').textContent).toBe('Give the entity a name.');
    await user.type(within(form).getByLabelText('Name'), 'Grace');
    await user.selectOptions(within(form).getByLabelText('Type'), 'person');
    await user.type(within(form).getByLabelText('Description'), 'Reviews the compiler');
    await user.selectOptions(within(form).getByLabelText('Known to'), '');
    await user.click(within(form).getByRole('button', { name: 'Add entity' }));
    await screen.findByText('Added Grace.');
    expect(api.addKnowledgeEntity).toHaveBeenCalledWith(expect.objectContaining({ name: 'Grace', type: 'person', agent: '', description: 'Reviews the compiler' }));
    const id = api.kg.state.entities.find((e) => e.name === 'Grace')!.id;
    await waitFor(() => expect(node(id)).not.toBeNull());
  });

  it('links two entities and unlinks them after confirming', async () => {
    const api = seeded();
    const user = userEvent.setup();
    render(KnowledgeGraph, { api, active: true });
    await searchFor(user, 'Ada');
    await waitFor(() => expect(node(3)).not.toBeNull());
    await user.click(screen.getByRole('button', { name: 'Link Ada to…' }));
    const form = screen.getByRole('form', { name: 'Link two entities' });
    await user.selectOptions(within(form).getByLabelText('Relation'), 'uses');
    await user.selectOptions(within(form).getByLabelText('To'), '3');
    await user.click(within(form).getByRole('button', { name: 'Link' }));
    await screen.findByText('Linked: Ada uses Go.');
    const links = screen.getByRole('region', { name: 'Links' });
    await waitFor(() => expect(links.textContent).toContain('Ada uses Go'));
    await user.click(within(links).getByRole('button', { name: 'Unlink Ada uses Go' }));
    await user.click(within(links).getByRole('button', { name: 'Unlink' }));
    await screen.findByText('Unlinked Ada and Go.');
    await waitFor(() => expect(links.textContent).not.toContain('Ada uses Go'));
  });

  it('edits an entity (clearing its review flag) and deletes one after confirming', async () => {
    const api = seeded();
    const user = userEvent.setup();
    render(KnowledgeGraph, { api, active: true });
    await searchFor(user, 'Ada');
    await waitFor(() => expect(node(4)).not.toBeNull());
    await user.click(screen.getByRole('button', { name: 'Edit Ada L.' }));
    const form = screen.getByRole('form', { name: 'Edit Ada L.' });
    expect(form.textContent).toContain('clears the “maybe a duplicate” flag');
    const name = within(form).getByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Ada Lovelace');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved Ada Lovelace.');
    expect(screen.queryByText(/maybe a duplicate of/)).toBeNull();
    const entities = screen.getByRole('region', { name: 'Entities' });
    await user.click(within(entities).getByRole('button', { name: 'Delete Go' }));
    await user.click(within(entities).getByRole('button', { name: 'Delete entity' }));
    await screen.findByText('Deleted Go.');
    expect(api.deleteKnowledgeEntity).toHaveBeenCalledWith(3);
    await waitFor(() => expect(node(3)).toBeNull());
  });

  it('says why a failed call failed, in a sentence', async () => {
    const api = seeded();
    const user = userEvent.setup();
    render(KnowledgeGraph, { api, active: true });
    await searchFor(user, 'Ada');
    await waitFor(() => expect(node(2)).not.toBeNull());
    api.kg.state.failNext = 'not found: no entity 2';
    await user.click(node(2)!);
    expect(await screen.findByText('Entity 2 no longer exists: it may have been deleted or merged.')).toBeTruthy();
  });

  it('says when nothing matches', async () => {
    const api = seeded();
    const user = userEvent.setup();
    render(KnowledgeGraph, { api, active: true });
    await searchFor(user, 'zebra');
    expect(await screen.findByText('Nothing found')).toBeTruthy();
  });
});
