import { render } from 'preact';
import './styles.css';
import './styles-admin.css';
import './styles-maintenance.css';
import './styles-sla.css';
import './styles-streams.css';
import { App } from './app.js';

render(<App />, document.getElementById('app')!);
