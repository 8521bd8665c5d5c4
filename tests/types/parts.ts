// Type-checks the seeds' Part and Blob helpers as tool and callback code uses them.
import { Blob, Part, type Part as PartValue } from '../../pkg/index.js';

export function describe(parts: PartValue[]): (string | null)[] {
  const reply: PartValue = Part.fromCustomizedResponse({ content: 'Please listen.', disableBargeIn: true });
  const keypad: PartValue = Part.fromCustomizedResponse({ enableDtmf: true, dtmfFinishDigit: '*', dtmfEndpointingTimeout: 5 });
  const payload: Blob = Blob.fromJson('{"key": "value"}');
  const heard: string | null = Blob.transcript(payload);
  const called: boolean = parts.some((p) => Part.hasFunctionCall(p, 'get_weather') || Part.hasFunctionResponse(p, 'get_weather'));
  return [...parts, reply, keypad].map((p) => Part.textOrTranscript(p)).concat(heard, called ? 'called' : null);
}
