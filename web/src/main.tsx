import { render } from 'preact';
import { App } from './app';
import { registerServiceWorker } from './push';
// the style sheets, in cascade order
import './styles/base.css';
import './styles/board.css';
import './styles/calendar.css';
import './styles/panel.css';
import './styles/forms.css';
import './styles/agenda.css';
import './styles/day.css';
import './styles/print.css';

render(<App />, document.getElementById('root')!);
registerServiceWorker();
