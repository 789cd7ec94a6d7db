import { mount } from 'svelte';
import App from './App.svelte';
import { wailsApi } from './lib/api';
import './app.css';
import './lib/panel.css';

const app = mount(App, {
  target: document.getElementById('app')!,
  props: { api: wailsApi },
});

export default app;
