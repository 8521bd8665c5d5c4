"""What the tool recorders (tests/mcp/record.py, tests/openapi/record.py) share: a scripted model that
calls one tool per turn, the loop that makes each call in a turn of its own, and running the test
server beside the recording."""

import asyncio
import json
import subprocess
import sys
from pathlib import Path

from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.genai import types


class Scripted(BaseLlm):
    """Calls the tool in `call`, then answers 'done'; keeps the requests."""

    model: str = 'scripted'
    requests: list = []
    call: tuple = ('', {})

    async def generate_content_async(self, llm_request, stream=False):
        self.requests.append(llm_request)
        last = llm_request.contents[-1]
        if any(p.function_response for p in last.parts or []):
            yield LlmResponse(content=types.Content(role='model', parts=[types.Part(text='done')]))
            return
        name, args = self.call
        yield LlmResponse(content=types.Content(role='model', parts=[types.Part(function_call=types.FunctionCall(name=name, args=args))]))


async def record_calls(agent, model: Scripted, calls: list) -> dict:
    """Each (tool, args) of `calls` in a turn of its own: the declarations of the first request and
    each call's function response."""
    runner = InMemoryRunner(agent=agent, app_name='app')
    session = await runner.session_service.create_session(app_name='app', user_id='u')
    recorded = []
    for name, args in calls:
        model.call = (name, args)
        message = types.Content(role='user', parts=[types.Part(text=f'call {name}')])
        responses = []
        async for event in runner.run_async(user_id='u', session_id=session.id, new_message=message):
            for part in (event.content.parts if event.content else None) or []:
                if part.function_response:
                    responses.append(part.function_response.response)
        recorded.append({'tool': name, 'args': args, 'response': responses[0]})
    tools = model.requests[0].config.tools
    declarations = [d.model_dump(mode='json', by_alias=True, exclude_none=True) for t in tools for d in t.function_declarations]
    return {'declarations': declarations, 'calls': recorded}


def record_against(server: Path, record, out: Path) -> None:
    """Starts `server` (a Python or Node script printing `READY <url>`), writes `record(url)` to `out`
    as JSON."""
    command = ['node', str(server)] if server.suffix == '.mjs' else [sys.executable, str(server)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=server.parent)
    try:
        line = process.stdout.readline().strip()
        assert line.startswith('READY '), line
        recorded = asyncio.run(record(line.split()[1]))
    finally:
        process.terminate()
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(recorded, ensure_ascii=False, indent=1) + '\n')
    print(f'wrote {out}')
