// @ts-check
// The release pkg/ in a real Chromium: it loads, and the event API matches ADK's golden fixtures.
import init, * as adk from '/pkg/index.js';
import { assert, assertJsonEqual, assertThrowsAdk, finish, test } from './harness.js';

const FIXTURES = ['adk-1.39.1', 'adk-2.13.0'];
// ADK 1.x counts an error event with function responses as not final; adk-wasm follows 2.x.
const ONLY_1X_NOT_FINAL = ['error_with_function_response'];
// A Python set: 1.x writes it in hash order.
const sortIds = (e) => (e.longRunningToolIds ? { ...e, longRunningToolIds: [...e.longRunningToolIds].sort() } : e);

await test('release package loads', async () => {
  await init();
});

for (const file of FIXTURES) {
  const fixture = await (await fetch(`/tests/fixtures/events/${file}.json`)).json();
  await test(`${file}: has the full set of cases`, () => assert(fixture.cases.length >= 30, `${fixture.cases.length} cases`));
  for (const { name, wire, helpers } of fixture.cases) {
    await test(`${file} ${name}`, () => {
      const theirs = JSON.parse(wire);
      assertJsonEqual(sortIds(adk.parseEvent(wire)), sortIds(theirs), 'parseEvent(text)');
      assertJsonEqual(sortIds(adk.parseEvent(theirs)), sortIds(theirs), 'parseEvent(object)');
      assertJsonEqual(sortIds(JSON.parse(adk.eventToJson(theirs))), sortIds(theirs), 'eventToJson');
      const finalExpected = file.startsWith('adk-1.') && ONLY_1X_NOT_FINAL.includes(name) ? true : helpers.isFinalResponse;
      assert(adk.isFinalResponse(theirs) === finalExpected, `isFinalResponse: ${adk.isFinalResponse(theirs)}`);
      assertJsonEqual(adk.getFunctionCalls(theirs), helpers.getFunctionCalls, 'getFunctionCalls');
      assertJsonEqual(adk.getFunctionResponses(theirs), helpers.getFunctionResponses, 'getFunctionResponses');
      assert(adk.hasTrailingCodeExecutionResult(theirs) === helpers.hasTrailingCodeExecutionResult, 'hasTrailingCodeExecutionResult');
    });
  }
}

await test('bad input is a typed error naming the field, and the SDK keeps working', () => {
  assertThrowsAdk(() => adk.parseEvent('not json'), 'INVALID_ARGUMENT', 'not valid JSON');
  // @ts-expect-error deliberately the wrong type
  assertThrowsAdk(() => adk.parseEvent({ author: 5 }), 'INVALID_ARGUMENT', 'author');
  // @ts-expect-error deliberately the wrong type
  assertThrowsAdk(() => adk.parseEvent({ author: 'a', content: { parts: [{ text: 1 }] } }), 'INVALID_ARGUMENT', 'content.parts[0].text');
  assertThrowsAdk(() => adk.parseEvent({ author: 'a', content: { parts: [{ inlineData: { data: '$$' } }] } }), 'INVALID_ARGUMENT', 'inlineData.data');
  assertThrowsAdk(() => adk.parseEvent(undefined), 'INVALID_ARGUMENT', 'undefined');
  // @ts-expect-error (a BigInt)
  assertThrowsAdk(() => adk.parseEvent({ author: 'a', n: 10n }), 'INVALID_ARGUMENT', 'not JSON-serializable');
  const cyclic = { author: 'a' };
  cyclic.self = cyclic;
  assertThrowsAdk(() => adk.parseEvent(cyclic), 'INVALID_ARGUMENT', 'not JSON-serializable');
  // @ts-expect-error (no author)
  assertThrowsAdk(() => adk.isFinalResponse({}), 'INVALID_ARGUMENT', 'author');
  assert(adk.parseEvent({ author: 'still-works' }).author === 'still-works');
});

await test('createEvent fills id, timestamp and the four action maps', () => {
  const before = Date.now() / 1000;
  const e = adk.createEvent({ author: 'agent', invocationId: 'e-1', content: { role: 'model', parts: [adk.Part.fromText('hi')] } });
  assert(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(e.id), `id ${e.id}`);
  assert(e.timestamp >= before - 1 && e.timestamp <= Date.now() / 1000 + 1, `timestamp ${e.timestamp}`);
  assertJsonEqual(e.actions, { stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} });
  assert(adk.isFinalResponse(e) && adk.isAgent(e, 'agent') && !adk.isUser(e) && !adk.hasError(e));
  assert(adk.createEvent({ author: 'a' }).id !== adk.createEvent({ author: 'a' }).id, 'ids are unique');
});

await test('Part and LlmResponse helpers', () => {
  assertJsonEqual(adk.Part.fromText('hi'), { text: 'hi' });
  assertJsonEqual(adk.Part.fromFunctionCall('f', { a: 1 }), { functionCall: { name: 'f', args: { a: 1 } } });
  assertJsonEqual(adk.Part.fromFunctionResponse('f', { output: 2 }), { functionResponse: { name: 'f', response: { output: 2 } } });
  assertJsonEqual(adk.Part.fromInlineData(new Uint8Array([0xfb, 0xff]), 'image/png'), { inlineData: { data: '-_8=', mimeType: 'image/png' } });
  assertJsonEqual(adk.Part.fromJson('{}'), { inlineData: { data: 'e30=', mimeType: 'application/json' } });
  assertJsonEqual(adk.Part.fromAgentTransfer('b'), { functionCall: { name: 'transfer_to_agent', args: { agent_name: 'b' } } });
  assertJsonEqual(adk.Part.fromEndSession({ reason: 'bye' }), { functionCall: { name: 'end_session', args: { reason: 'bye', escalated: false } } });
  assertJsonEqual(adk.LlmResponse.fromParts([{ text: 'x' }]), { content: { role: 'model', parts: [{ text: 'x' }] } });
});

/** The UTF-8 text of a blob's URL-safe base64 data. */
const blobText = (blob) => new TextDecoder().decode(Uint8Array.from(atob(blob.data.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)));

await test("the seeds' Part and Blob helpers", () => {
  const custom = adk.Part.fromCustomizedResponse({ content: '안녕', disableBargeIn: true });
  assert(custom.inlineData.mimeType === 'application/json+agentResponse');
  assert(blobText(custom.inlineData) === '{"content": "\\uc548\\ub155", "disableBargeIn": true, "enableDtmf": false, "dtmfFinishDigit": "#", "dtmfEndpointingTimeout": 3}', blobText(custom.inlineData));
  const keypad = JSON.parse(blobText(adk.Part.fromCustomizedResponse({ enableDtmf: true, dtmfFinishDigit: '*', dtmfEndpointingTimeout: 5 }).inlineData));
  assertJsonEqual(keypad, { content: '', disableBargeIn: false, enableDtmf: true, dtmfFinishDigit: '*', dtmfEndpointingTimeout: 5 });
  assertThrowsAdk(() => adk.Part.fromCustomizedResponse({ dtmfEndpointingTimeout: 1.5 }), 'INVALID_ARGUMENT', 'dtmfEndpointingTimeout');
  const audio = { inlineData: { mimeType: 'audio/wav', data: 'AAA=', transcript: 'hello' } };
  assert(adk.Part.textOrTranscript({ text: '' }) === '' && adk.Part.textOrTranscript(audio) === 'hello');
  assert(adk.Part.textOrTranscript(adk.Part.fromFunctionCall('f')) === null);
  assert(adk.Part.hasFunctionCall(adk.Part.fromFunctionCall('f'), 'f') && !adk.Part.hasFunctionCall(adk.Part.fromFunctionCall('f'), 'g'));
  assert(adk.Part.hasFunctionResponse(adk.Part.fromFunctionResponse('f', {}), 'f') && !adk.Part.hasFunctionResponse(adk.Part.fromText('f'), 'f'));
  const blob = adk.Blob.fromJson('{"key": "value"}');
  assert(blob.mimeType === 'application/json' && blobText(blob) === '{"key": "value"}');
  assert(adk.Blob.transcript(audio.inlineData) === 'hello' && adk.Blob.transcript(blob) === null);
  // The transcript survives the event model.
  const event = adk.parseEvent({ author: 'user', content: { role: 'user', parts: [audio] } });
  assert(adk.Part.textOrTranscript(event.content.parts[0]) === 'hello');
});

finish();
