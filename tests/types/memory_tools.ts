// Type-checks the memory tools as an app passes them to an LlmAgent.
import { LlmAgent, LOAD_MEMORY, PreloadMemoryTool, ScriptedModel, type ToolLike } from '../../pkg/index.js';

export function memoryAgent(): LlmAgent {
  const preload = new PreloadMemoryTool();
  const names: ['preload_memory', 'load_memory'] = [preload.name, LOAD_MEMORY.name];
  const tools: ToolLike[] = [preload, LOAD_MEMORY];
  return new LlmAgent({ name: names[0], model: new ScriptedModel(['hi']), tools });
}
