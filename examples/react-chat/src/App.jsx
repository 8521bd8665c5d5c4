import { useChat } from '@ai-sdk/react';
import { useMemo, useState } from 'react';
import { AdkServerClient } from 'adk-wasm';
import { AdkChatTransport } from 'adk-wasm/ai-sdk';
import { createLocalRunner } from './agent.js';

/** Picks where the chat's turns go; each source keeps its own conversation. */
export function App({ serverUrl }) {
  const [source, setSource] = useState('local');
  const [localRunner] = useState(createLocalRunner);
  const transport = useMemo(
    () => (source === 'local'
      ? new AdkChatTransport({ runner: localRunner, userId: 'me' })
      : new AdkChatTransport({ server: new AdkServerClient({ baseUrl: serverUrl }), appName: 'weather', userId: 'me' })),
    [source, serverUrl, localRunner],
  );
  return (
    <main>
      <header>
        <h1>adk-wasm · React chat</h1>
        <label>
          Agent{' '}
          <select value={source} onChange={(e) => setSource(e.target.value)} aria-label="source">
            <option value="local">In this page</option>
            <option value="server">ADK server ({serverUrl})</option>
          </select>
        </label>
      </header>
      <Chat key={source} transport={transport} />
    </main>
  );
}

function Chat({ transport }) {
  const { messages, sendMessage, status, stop, error } = useChat({ transport });
  const [input, setInput] = useState('');
  const busy = status === 'submitted' || status === 'streaming';
  const submit = (e) => {
    e.preventDefault();
    if (!input.trim() || busy) return;
    sendMessage({ text: input });
    setInput('');
  };
  return (
    <>
      <ol className="messages">
        {messages.map((message) => (
          <li key={message.id} className={message.role}>
            {message.parts.map((part, i) => <MessagePart key={i} part={part} />)}
          </li>
        ))}
      </ol>
      {error && <p className="error" role="alert">{error.message}</p>}
      <form onSubmit={submit}>
        <input value={input} onChange={(e) => setInput(e.target.value)} placeholder="Ask about a city's weather" aria-label="message" />
        {busy ? <button type="button" onClick={stop}>Stop</button> : <button type="submit">Send</button>}
      </form>
    </>
  );
}

function MessagePart({ part }) {
  if (part.type === 'text') return <p className="text">{part.text}</p>;
  if (part.type === 'reasoning') return <p className="reasoning">{part.text}</p>;
  if (part.type === 'dynamic-tool' || part.type.startsWith('tool-')) {
    const name = part.toolName ?? part.type.slice('tool-'.length);
    return (
      <p className="tool">
        <code>{name}({JSON.stringify(part.input)})</code>
        {part.state === 'output-available' && <> → <code>{JSON.stringify(part.output)}</code></>}
        {part.state === 'output-error' && <> → <span className="error">{part.errorText}</span></>}
      </p>
    );
  }
  return null;
}
