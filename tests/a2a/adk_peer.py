"""A2A test peer: google-adk 2.13.0 `to_a2a()` serving a deterministic agent (no model call).

For every message the agent yields two partial text events, then a final text event that also
writes session state (`turns`, `last_user_text`). to_a2a mounts JSON-RPC only, at POST / , with
v1.0 and v0.3 on the same URL (v0.3 method names need no A2A-Version header, v1.0 names need
`A2A-Version: 1.0`); the card is at /.well-known/agent-card.json.

Usage: adk_peer.py [--port N]   (N=0 picks a free port; prints `READY http://127.0.0.1:PORT`)
"""

import warnings
from collections.abc import AsyncGenerator

from google.adk.a2a.utils.agent_to_a2a import to_a2a
from google.adk.agents import BaseAgent
from google.adk.agents.invocation_context import InvocationContext
from google.adk.events import Event, EventActions
from google.genai import types

from _serve import HOST, add_cors, bind, serve


class ScriptedAgent(BaseAgent):
    """Streams a fixed reply that quotes the user's text, so the output is predictable."""

    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        user_text = ''.join(p.text or '' for p in (ctx.user_content.parts or [])) if ctx.user_content else ''
        pieces = ['안녕하세요 👋 ', f'you said: {user_text}']

        def event(text: str, **kwargs) -> Event:
            return Event(
                author=self.name,
                invocation_id=ctx.invocation_id,
                content=types.Content(role='model', parts=[types.Part(text=text)]),
                **kwargs,
            )

        for piece in pieces:
            yield event(piece, partial=True)
        turns = int(ctx.session.state.get('turns', 0)) + 1
        yield event(
            ''.join(pieces) + ' 🌏',
            actions=EventActions(state_delta={'turns': turns, 'last_user_text': user_text}),
        )


def main() -> None:
    sock, base_url = bind(__doc__.splitlines()[0])
    # ADK's A2A support warns that it is experimental once per component; that noise would bury
    # the errors peers.mjs shows when a peer fails to start.
    warnings.filterwarnings('ignore', message=r'\[EXPERIMENTAL\]')
    agent = ScriptedAgent(name='adk_peer', description='Deterministic ADK agent behind to_a2a().')
    app = to_a2a(agent, host=HOST, port=sock.getsockname()[1])
    add_cors(app)
    serve(app, sock, base_url)


if __name__ == '__main__':
    main()
