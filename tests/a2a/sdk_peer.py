"""A2A test peer built on a2a-sdk 1.3.0, serving one scripted agent over every HTTP binding.

One base URL serves protocol v1.0 and v0.3, JSON-RPC and HTTP+JSON (REST):
  JSON-RPC   POST /                    v1.0 method names (SendStreamingMessage, ...) need the header
                                       `A2A-Version: 1.0`; v0.3 names (message/stream, ...) need it
                                       absent or 0.3.
  REST v1.0  POST /message:stream ...  with `A2A-Version: 1.0`
  REST v0.3  POST /v1/message:stream   without the header (or 0.3)
  card       GET  /.well-known/agent-card.json (v1.0 supportedInterfaces plus the v0.3 url fields)
  tenant     GET  /acme/.well-known/agent-card.json: the same interfaces, each with tenant `acme`
             (a2a-sdk's server reads a v1.0 request's tenant from the JSON-RPC params or from the
             REST path's first segment)

The reply to a message is scripted by the whitespace-separated words of its text (any other word
is ignored, so "hello" gets the default script):
  slow:<ms>    sleep <ms> milliseconds before each event after the first (cancel/resubscribe tests)
  chunks:<n>   send the artifact in n chunks (default 2, clamped to 1..10000)
  fail         after the first chunk, end in state failed with an agent message
  input        end in state input-required instead of completed; a follow-up message with the
               same taskId runs the script again on that task
  auth         the same, in state auth-required (the person signs in elsewhere, then replies)
  echo         the artifact's first chunk is the whole message text, verbatim
  tenant       the artifact's first chunk is `tenant:` and the tenant the request named

Default script: Task(submitted) -> status working (agent message) -> artifact chunk
(append false) -> artifact chunk (append true, lastChunk true) -> status completed.
Artifact text is Korean and emoji on purpose, to exercise UTF-8 across chunk boundaries.
tasks/cancel (CancelTask) ends a running task in state canceled.

Usage: sdk_peer.py [--port N]   (N=0 picks a free port; prints `READY http://127.0.0.1:PORT`)
"""

import asyncio

from a2a.helpers.proto_helpers import get_message_text, new_task_from_user_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes, create_rest_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill
from starlette.applications import Starlette

from _serve import add_cors, bind, serve

MAX_CHUNKS = 10_000
FIRST_CHUNKS = ['안녕하세요 👋 ', 'A2A 세계 🌏!']


class Script:
    """What the user's message asked for (see the module docstring)."""

    def __init__(self, text: str, tenant: str):
        self.text = text
        self.tenant = tenant
        self.delay = 0.0
        self.chunks = 2
        words = text.split()
        for word in words:
            key, _, value = word.partition(':')
            if key == 'slow' and value.isdigit():
                self.delay = int(value) / 1000
            elif key == 'chunks' and value.isdigit():
                self.chunks = min(max(int(value), 1), MAX_CHUNKS)
        self.fail = 'fail' in words
        self.input = 'input' in words
        self.auth = 'auth' in words
        self.echo = 'echo' in words
        self.show_tenant = 'tenant' in words

    def chunk_text(self, k: int) -> str:
        if k == 0 and self.echo:
            return self.text
        if k == 0 and self.show_tenant:
            return f'tenant:{self.tenant}'
        return FIRST_CHUNKS[k] if k < len(FIRST_CHUNKS) else f' {k}🌏'


class ScriptedExecutor(AgentExecutor):
    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        script = Script(get_message_text(context.message), context.tenant)
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)
        first = True

        async def pace() -> None:
            nonlocal first
            if not first and script.delay:
                await asyncio.sleep(script.delay)
            first = False

        def say(text: str):
            return updater.new_agent_message([new_text_part(text)])

        # A follow-up to an input-required task continues it; only a new task is announced.
        if context.current_task is None:
            await pace()
            await event_queue.enqueue_event(new_task_from_user_message(context.message))
        await pace()
        await updater.start_work(say('working on it ⏳'))

        for k in range(script.chunks):
            await pace()
            await updater.add_artifact(
                [new_text_part(script.chunk_text(k))],
                artifact_id='answer',
                name='answer',
                append=k > 0,
                last_chunk=k == script.chunks - 1,
            )
            if script.fail:
                await pace()
                await updater.failed(say('failed on purpose 💥 (the message said "fail")'))
                return

        await pace()
        if script.input:
            await updater.requires_input(say('need more input ✍️: reply on this task'))
        elif script.auth:
            await updater.requires_auth(say('sign in at the bank 🔐, then reply on this task'))
        else:
            await updater.complete(say('done ✅'))

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)
        await updater.cancel(updater.new_agent_message([new_text_part('canceled 🛑')]))


def agent_card(base_url: str, tenant: str = '') -> AgentCard:
    # The v0.3 interfaces come last: the SDK derives the card's v0.3 `url`/`preferredTransport`
    # from the first interface whose protocolVersion is 0.x.
    interfaces = [
        AgentInterface(url=base_url, protocol_binding=binding, protocol_version=version, tenant=tenant)
        for version in ('1.0', '0.3')
        for binding in ('JSONRPC', 'HTTP+JSON')
    ]
    return AgentCard(
        name='sdk_peer',
        description='Scripted a2a-sdk test peer; the message text picks the script.',
        version='1.0.0',
        supported_interfaces=interfaces,
        capabilities=AgentCapabilities(streaming=True),
        default_input_modes=['text/plain'],
        default_output_modes=['text/plain'],
        skills=[
            AgentSkill(
                id='script',
                name='Scripted stream',
                description='Words in the message: slow:<ms> chunks:<n> fail input echo.',
                tags=['test'],
                examples=['hello', 'chunks:5 slow:100', 'echo 안녕'],
            )
        ],
    )


def main() -> None:
    sock, base_url = bind(__doc__.splitlines()[0])
    card = agent_card(base_url)
    handler = DefaultRequestHandler(
        agent_executor=ScriptedExecutor(), task_store=InMemoryTaskStore(), agent_card=card
    )
    app = Starlette(
        routes=[
            *create_agent_card_routes(card),
            *create_agent_card_routes(agent_card(base_url, 'acme'), card_url='/acme/.well-known/agent-card.json'),
            *create_jsonrpc_routes(handler, '/', enable_v0_3_compat=True),
            *create_rest_routes(handler, enable_v0_3_compat=True),
        ]
    )
    add_cors(app)
    serve(app, sock, base_url)


if __name__ == '__main__':
    main()
