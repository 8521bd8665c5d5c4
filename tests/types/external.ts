// Type-checks tools calling other tools and HTTP from a tool, as the seeds' Python code does.
import { ExternalResponse, FunctionTool, requests, StatusError, type JsonObject, type JsonValue } from '../../pkg/index.js';

export const planner = new FunctionTool({
  name: 'planner',
  execute: async (args, context): Promise<JsonObject> => {
    const weather: ExternalResponse = await context.tools.get_weather!({ city: 'Seoul' });
    const same = await context.callTool('get_weather', { city: 'Seoul' });
    const page = await context.requests.get('https://example.test/api', { params: { q: 'rain', n: 2 }, timeout: 5 });
    try {
      page.raiseForStatus();
    } catch (e) {
      if (e instanceof StatusError) return { failed: e.statusCode, reason: e.reason };
    }
    const posted = await requests.post('https://example.test/api', { json: { a: 1 }, headers: { 'x-k': 'v' } });
    const body: JsonValue = weather.ok ? weather.json() : same.text;
    return { body, status: posted.statusCode };
  },
});
