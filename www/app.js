// Placeholder demo: builds a short ADK conversation with the release package and renders each event
// (as text only) with what ADK's helpers say about it. The full demo replaces this.
import init, { createEvent, isFinalResponse, getFunctionCalls, getFunctionResponses, Part } from '../pkg/index.js';

await init();
const inv = 'e-' + crypto.randomUUID();
const call = { ...Part.fromFunctionCall('get_weather', { city: 'Seoul' }) };
call.functionCall.id = 'adk-' + crypto.randomUUID();
const conversation = [
  createEvent({ author: 'user', invocationId: inv, content: { role: 'user', parts: [Part.fromText('서울 날씨 알려줘')] } }),
  createEvent({ author: 'weather_agent', invocationId: inv, content: { role: 'model', parts: [call] } }),
  createEvent({
    author: 'weather_agent', invocationId: inv,
    content: { role: 'user', parts: [{ functionResponse: { id: call.functionCall.id, name: 'get_weather', response: { output: '21°C, clear' } } }] },
    actions: { stateDelta: { 'user:last_city': 'Seoul' } },
  }),
  createEvent({ author: 'weather_agent', invocationId: inv, partial: true, content: { role: 'model', parts: [Part.fromText('서울은 ')] } }),
  createEvent({ author: 'weather_agent', invocationId: inv, content: { role: 'model', parts: [Part.fromText('서울은 맑고 21°C입니다.')] } }),
];

const list = document.getElementById('events');
for (const event of conversation) {
  const kind = getFunctionCalls(event).length ? 'tool call' : getFunctionResponses(event).length ? 'tool result' : event.partial ? 'partial' : 'text';
  const li = document.createElement('li');
  li.className = isFinalResponse(event) ? 'final' : '';
  const meta = document.createElement('div');
  meta.className = 'meta';
  meta.textContent = `${event.author} · ${kind} · final: ${isFinalResponse(event)} · ${event.invocationId}`;
  const json = document.createElement('pre');
  json.textContent = JSON.stringify(event, null, 2);
  li.append(meta, json);
  list.append(li);
}
document.getElementById('status').textContent = `${conversation.length} events created by the release package.`;
