// A dev-only page for e2e/knowledge.e2e.mjs: mounts one panel (?panel=skills
// or ?panel=knowledge) on the real bindings, for panels App.svelte does not
// mount yet. Never part of the app's build (frontend/dist): the e2e builds it
// into its own folder and serves it with -assetdir.
import { mount } from 'svelte';
import KnowledgeGraph from '../src/components/KnowledgeGraph.svelte';
import SkillsPanel from '../src/components/SkillsPanel.svelte';
import { wailsApi } from '../src/lib/api';
import '../src/app.css';
import '../src/lib/panel.css';

const panel = new URLSearchParams(location.search).get('panel') === 'skills' ? SkillsPanel : KnowledgeGraph;
mount(panel, { target: document.getElementById('app')!, props: { api: wailsApi, active: true } });
