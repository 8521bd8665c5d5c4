// The page side of benches/a2a.mjs: three consumers of the same recorded stream, each counting
// events and concatenating the artifact text (so every event is really decoded, not skipped).
// window.bench resolves to { clients, run(label) }; run times one request and reports what it saw.
import init, { A2AClient } from '/pkg/index.js';
import { ClientFactory } from '/test-output/bench/a2a-js-sdk.js';

const BASE = `${location.origin}/bench/`;
const TEXT = 'chunks:10000'; // what the recording answered; the replay ignores it

window.bench = setup();

async function setup() {
  await init();
  // Clients are built once (card fetched once), as an app would; only the stream is timed.
  const ours = await A2AClient.fromCardUrl(`${BASE}.well-known/agent-card.json`);
  const theirs = await new ClientFactory().createFromUrl(BASE);
  let floorId = 0;

  const consumers = {
    async 'adk-wasm'(touch) {
      for await (const item of ours.sendMessageStream({ message: { parts: [{ text: TEXT }] } })) {
        touch(item.artifactUpdate ? textOf(item.artifactUpdate.artifact.parts, (p) => p.text) : '');
      }
    },

    async '@a2a-js/sdk'(touch) {
      // The SDK's own (ts-proto) shapes: oneofs are { $case, value }, enums are numbers (1 = ROLE_USER).
      const message = {
        messageId: crypto.randomUUID(), contextId: '', taskId: '', role: 1, metadata: undefined, extensions: [], referenceTaskIds: [],
        parts: [{ content: { $case: 'text', value: TEXT }, metadata: undefined, filename: '', mediaType: '' }],
      };
      const params = { tenant: '', message, configuration: undefined, metadata: undefined };
      for await (const r of theirs.sendMessageStream(params)) {
        const u = r.payload?.$case === 'artifactUpdate' ? r.payload.value : undefined;
        touch(u ? textOf(u.artifact.parts, (p) => (p.content?.$case === 'text' ? p.content.value : undefined)) : '');
      }
    },

    // The least any JS consumer must do: read, decode UTF-8, split frames, parse each data payload.
    async floor(touch) {
      const response = await fetch(BASE, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'A2A-Version': '1.0' },
        body: JSON.stringify({
          jsonrpc: '2.0', id: `floor-${floorId++}`, method: 'SendStreamingMessage',
          params: { message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: TEXT }] } },
        }),
      });
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      // Lines end in LF or CRLF (a lone CR, which SSE also allows, is not handled: no server here sends it).
      let buffer = '';
      let data = '';
      const dispatch = () => {
        const u = JSON.parse(data).result.artifactUpdate;
        touch(u ? textOf(u.artifact.parts, (p) => p.text) : '');
        data = '';
      };
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let start = 0;
        for (let end; (end = buffer.indexOf('\n', start)) >= 0; start = end + 1) {
          const line = buffer.slice(start, buffer.charCodeAt(end - 1) === 13 ? end - 1 : end);
          if (line === '') {
            if (data) dispatch();
          } else if (line.startsWith('data:')) {
            const v = line.slice(line.charCodeAt(5) === 32 ? 6 : 5);
            data = data ? `${data}\n${v}` : v;
          }
        }
        buffer = buffer.slice(start);
      }
      if (data) dispatch();
    },
  };

  return {
    clients: {
      ours: { protocolVersion: ours.protocolVersion, binding: ours.binding, url: ours.url },
      theirs: { protocolVersion: theirs.protocolVersion, protocolName: theirs.transport.protocolName },
    },
    async run(label) {
      let events = 0;
      let text = '';
      let firstMs = 0;
      const t0 = performance.now();
      await consumers[label]((piece) => {
        if (events++ === 0) firstMs = performance.now() - t0;
        text += piece;
      });
      const ms = performance.now() - t0;
      return { ms, firstMs, events, length: text.length, sha256: await sha256(text) };
    },
  };
}

function textOf(parts, textOfPart) {
  let s = '';
  for (const p of parts) s += textOfPart(p) ?? '';
  return s;
}

async function sha256(text) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
