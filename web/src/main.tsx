import { render } from 'preact';
import { App } from './app';
import { registerServiceWorker } from './push';
import './styles.css';

render(<App />, document.getElementById('root')!);
registerServiceWorker();
