import { mount } from 'svelte';
import { ensureCrossOriginIsolated } from './app/cross-origin-isolation.ts';
import App from './ui/App.svelte';
import './ui/global.css';

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element');
const isolation = await ensureCrossOriginIsolated();
if (isolation !== 'reloading') {
  if (typeof isolation === 'object') console.warn(`not cross-origin isolated: ${isolation.unavailable}`);
  target.textContent = '';
  mount(App, { target });
}
