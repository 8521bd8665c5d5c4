import { createRoot } from 'react-dom/client';
import init from 'adk-wasm';
import { App } from './App.jsx';

// The ADK server's URL: `?server=` (what `make example` opens), else a local `adk api_server`'s default.
const serverUrl = new URLSearchParams(location.search).get('server') ?? 'http://127.0.0.1:8000';

await init();
createRoot(document.getElementById('root')).render(<App serverUrl={serverUrl} />);
