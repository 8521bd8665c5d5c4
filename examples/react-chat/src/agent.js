// The agent that runs in the page: an LlmAgent with one tool, over a model written in JS so the example
// runs offline and the same every time (swap in `new Gemini({ model, apiKey })` for a real one).
import { FunctionTool, InMemoryRunner, LlmAgent } from 'adk-wasm';

const getWeather = new FunctionTool({
  name: 'get_weather',
  description: 'Returns the current weather in a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: ({ city }) => ({ city, condition: 'sunny', temp_c: 21 }),
});

/** Calls get_weather for the city asked about, then streams the answer word by word. */
const offlineModel = {
  model: 'offline-weather',
  async *generateContent(request) {
    const parts = request.contents.at(-1)?.parts ?? [];
    const weather = parts.find((part) => part.functionResponse)?.functionResponse.response;
    if (!weather) {
      const city = parts.map((part) => part.text ?? '').join('').trim() || 'Seoul';
      yield { content: { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city } } }] } };
      return;
    }
    for (const word of `It is ${weather.condition} and ${weather.temp_c} °C in ${weather.city}.`.split(/(?<= )/)) {
      await new Promise((resolve) => setTimeout(resolve, 30));
      yield { content: { role: 'model', parts: [{ text: word }] }, partial: true };
    }
  },
};

/** A runner over in-memory services (made once `init()` has loaded the wasm). */
export function createLocalRunner() {
  return new InMemoryRunner({
    appName: 'react-chat',
    agent: new LlmAgent({ name: 'weather', model: offlineModel, instruction: 'Use get_weather to answer.', tools: [getWeather] }),
  });
}
