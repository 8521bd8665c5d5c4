"""Records the golden AG-UI event streams that ag-ui-adk (the Python middleware) emits for the test agents.

    bash scripts/venv.sh agui tests/ag_ui/requirements.txt 'import google.adk, ag_ui_adk, ag_ui_validate, ag_ui.core'
    .venv/agui/bin/python tests/ag_ui/record.py [OUT]   # OUT defaults to tests/fixtures/ag-ui/ag-ui-adk-0.11.0.json

Each scenario wraps one agent module in `ADKAgent(adk_agent=..., app_name=<folder>, user_id='user',
use_in_memory_services=True)` (defaults otherwise: SSE streaming run config, no MESSAGES_SNAPSHOT, no
interrupt outcome) and feeds it RunAgentInputs with fixed thread/run/message ids. A run after the
first resends the conversation as an AG-UI client holds it: the earlier input messages plus the
messages rebuilt from the earlier runs' events (`client_messages`), then the new message(s).

The agents are exactly the modules the `adk api_server` tests load: tests/adk_server/agents/{weather,
story,failing,asking} and tests/ag_ui/agents/frontend. Events are saved as
`event.model_dump(mode='json', by_alias=True, exclude_none=True)`; ids that ag-ui-adk makes up
(message and tool call ids) are uuids and differ from one recording to the next. `adkEvents` is the
ADK session at the end of the scenario (debugging aid; its ids and timestamps vary too).
"""

import asyncio
import copy
import json
import logging
import sys
import warnings
from importlib.metadata import version
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT / 'tests' / 'adk_server' / 'agents'))
sys.path.insert(0, str(HERE / 'agents'))

warnings.filterwarnings('ignore')
logging.basicConfig(level=logging.CRITICAL)

from ag_ui.core import RunAgentInput  # noqa: E402
from ag_ui_adk import ADKAgent  # noqa: E402
from google.adk.agents.run_config import RunConfig, StreamingMode  # noqa: E402

import asking  # noqa: E402
import failing  # noqa: E402
import frontend  # noqa: E402
import story  # noqa: E402
import weather  # noqa: E402

AGENTS = {
    'weather': weather.agent.root_agent,
    'story': story.agent.root_agent,
    'failing': failing.agent.root_agent,
    'asking': asking.agent.root_agent,
    'frontend': frontend.agent.root_agent,
}

CHANGE_BACKGROUND = {
    'name': 'change_background',
    'description': 'Changes the page background.',
    'parameters': {'type': 'object', 'properties': {'color': {'type': 'string'}}, 'required': ['color']},
}


def dump(model) -> dict:
    return model.model_dump(mode='json', by_alias=True, exclude_none=True)


def user(id_: str, text: str) -> dict:
    return {'id': id_, 'role': 'user', 'content': text}


def run_input(thread: str, run: str, messages: list, state=None, tools=None) -> dict:
    """A RunAgentInput in the camelCase JSON a client POSTs (every required field present)."""
    return {
        'threadId': thread,
        'runId': run,
        'state': {} if state is None else state,
        'messages': messages,
        'tools': tools or [],
        'context': [],
        'forwardedProps': {},
    }


def client_messages(events: list) -> list:
    """The messages an AG-UI client (@ag-ui/client's default event application) builds from a run's events.

    TEXT_MESSAGE_* make assistant messages; TOOL_CALL_START adds a tool call to the assistant message
    named by parentMessageId (or the last message when that is it), else starts a new assistant message;
    TOOL_CALL_ARGS append to its arguments; TOOL_CALL_RESULT makes a tool message; REASONING_MESSAGE_*
    make reasoning messages.
    """
    messages: list = []
    by_id: dict = {}
    calls: dict = {}

    def add(message: dict) -> dict:
        messages.append(message)
        by_id[message['id']] = message
        return message

    for e in events:
        t = e['type']
        if t == 'TEXT_MESSAGE_START':
            add({'id': e['messageId'], 'role': e.get('role', 'assistant'), 'content': ''})
        elif t == 'TEXT_MESSAGE_CONTENT':
            by_id[e['messageId']]['content'] += e['delta']
        elif t == 'REASONING_MESSAGE_START':
            add({'id': e['messageId'], 'role': 'reasoning', 'content': ''})
        elif t == 'REASONING_MESSAGE_CONTENT':
            by_id[e['messageId']]['content'] += e['delta']
        elif t == 'TOOL_CALL_START':
            parent = e.get('parentMessageId')
            target = by_id.get(parent) if parent else None
            if target is None or target['role'] != 'assistant':
                target = add({'id': parent or e['toolCallId'], 'role': 'assistant'})
            call = {'id': e['toolCallId'], 'type': 'function', 'function': {'name': e['toolCallName'], 'arguments': ''}}
            target.setdefault('toolCalls', []).append(call)
            calls[e['toolCallId']] = call
        elif t == 'TOOL_CALL_ARGS':
            calls[e['toolCallId']]['function']['arguments'] += e['delta']
        elif t == 'TOOL_CALL_RESULT':
            add({'id': e['messageId'], 'role': 'tool', 'toolCallId': e['toolCallId'], 'content': e['content']})
    return messages


def pending_calls(events: list, name: str) -> list:
    """TOOL_CALL_STARTs named `name` that got no TOOL_CALL_RESULT in the run."""
    answered = {e['toolCallId'] for e in events if e['type'] == 'TOOL_CALL_RESULT'}
    return [e for e in events if e['type'] == 'TOOL_CALL_START' and e['toolCallName'] == name
            and e['toolCallId'] not in answered]


class Recorder:
    def __init__(self, agent_name: str, **adk_kwargs):
        self.agent_name = agent_name
        self.adk = ADKAgent(adk_agent=AGENTS[agent_name], app_name=agent_name, user_id='user',
                            use_in_memory_services=True, **adk_kwargs)
        self.runs: list = []
        self.threads: list = []

    async def run(self, input_json: dict) -> list:
        parsed = RunAgentInput.model_validate(input_json)
        events = [dump(e) async for e in self.adk.run(parsed)]
        self.runs.append({'input': input_json, 'events': events})
        if input_json['threadId'] not in self.threads:
            self.threads.append(input_json['threadId'])
        return events

    def history(self) -> list:
        """All messages the client holds after the recorded runs (inputs + rebuilt from events)."""
        last = self.runs[-1]
        return copy.deepcopy(last['input']['messages']) + client_messages(last['events'])

    async def adk_events(self) -> list:
        out = []
        for thread in self.threads:
            sid = self.adk._get_backend_session_id(thread, 'user', app_name=self.agent_name)
            session = sid and await self.adk._session_manager.get_session(sid, self.agent_name, 'user')
            if session:
                out += [dump(e) for e in session.events]
        return out

    async def finish(self, name: str) -> dict:
        try:
            adk_events = await self.adk_events()
        except Exception as e:  # debugging aid only
            adk_events = [{'error': repr(e)}]
        await self.adk.close()
        return {'name': name, 'agent': self.agent_name, 'runs': self.runs, 'adkEvents': adk_events}


async def weather_scenario() -> dict:
    r = Recorder('weather')
    await r.run(run_input('thread-weather', 'run-1', [user('m1', 'Seoul')]))
    return await r.finish('weather')


async def weather_nonstreaming() -> dict:
    # run_config_factory replaces ag-ui-adk's default (StreamingMode.SSE) for every run of this ADKAgent.
    r = Recorder('weather', run_config_factory=lambda _input: RunConfig(
        streaming_mode=StreamingMode.NONE, save_input_blobs_as_artifacts=False))
    await r.run(run_input('thread-weather-nostream', 'run-1', [user('m1', 'Seoul')]))
    return await r.finish('weather_nonstreaming')


async def weather_state() -> dict:
    r = Recorder('weather')
    await r.run(run_input('thread-weather-state', 'run-1', [user('m1', 'Paris')], state={'theme': 'dark'}))
    return await r.finish('weather_state')


async def story_scenario() -> dict:
    r = Recorder('story')
    await r.run(run_input('thread-story', 'run-1', [user('m1', 'go')]))
    await r.run(run_input('thread-story', 'run-2', r.history() + [user('m2', 'again')]))
    return await r.finish('story')


async def failing_scenario() -> dict:
    r = Recorder('failing')
    await r.run(run_input('thread-failing', 'run-1', [user('m1', 'x')]))
    return await r.finish('failing')


async def confirmation() -> dict:
    r = Recorder('asking')
    events = await r.run(run_input('thread-asking', 'run-1', [user('m1', 'send Bob 500')]))
    asks = pending_calls(events, 'adk_request_confirmation')
    if not asks:
        raise SystemExit('confirmation: run 1 emitted no adk_request_confirmation call')
    answers = [{'id': f'm-tool-{i + 1}', 'role': 'tool', 'toolCallId': e['toolCallId'],
                'content': json.dumps({'confirmed': True})} for i, e in enumerate(asks)]
    await r.run(run_input('thread-asking', 'run-2', r.history() + answers))
    return await r.finish('confirmation')


async def frontend_tool() -> dict:
    r = Recorder('frontend')
    events = await r.run(run_input('thread-frontend', 'run-1', [user('m1', 'make it blue')], tools=[CHANGE_BACKGROUND]))
    calls = pending_calls(events, 'change_background')
    if not calls:
        raise SystemExit('frontend_tool: run 1 emitted no change_background call')
    answers = [{'id': f'm-tool-{i + 1}', 'role': 'tool', 'toolCallId': e['toolCallId'],
                'content': json.dumps({'color': 'blue', 'done': True})} for i, e in enumerate(calls)]
    await r.run(run_input('thread-frontend', 'run-2', r.history() + answers, tools=[CHANGE_BACKGROUND]))
    return await r.finish('frontend_tool')


SCENARIOS = [weather_scenario, weather_nonstreaming, weather_state, story_scenario, failing_scenario,
             confirmation, frontend_tool]


async def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / 'tests' / 'fixtures' / 'ag-ui' / 'ag-ui-adk-0.11.0.json'
    scenarios = [await s() for s in SCENARIOS]
    generator = 'tests/ag_ui/record.py: ' + ', '.join(
        f'{p} {version(p)}' for p in ('ag-ui-adk', 'ag-ui-protocol', 'google-adk', 'google-genai', 'pydantic'))
    doc = {'generator': generator, 'scenarios': scenarios}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + '\n', encoding='utf-8')
    for s in scenarios:
        for i, run in enumerate(s['runs']):
            print(f"{s['name']} run {i + 1}: " + ' '.join(e['type'] for e in run['events']), file=sys.stderr)
    print(f'wrote {out}', file=sys.stderr)


if __name__ == '__main__':
    asyncio.run(main())
