"""MCP test server: the `mcp` SDK's MCPServer (2.3) over Streamable HTTP at /mcp and over the older
HTTP+SSE at /sse (messages POSTed to /messages/), with CORS, for the browser tests and ADK's
McpToolset recorder. Its tools come in the shapes a page meets:

  add(a, b)                 integers in, an integer out (structured output too)
  describe_city(city, units) an enum with a default, a JSON object out
  tag_all(tags)             an array in and out
  server_time()             no arguments, text out (fixed, so recordings are stable)
  red_pixel()               an image out (a 1x1 PNG)
  fail_on_purpose()         raises: the result has isError
  slow(seconds)             sleeps, for cancellation
  cancellations()           the `slow` calls the client cancelled so far (their seconds)
  echo_header(name)         the value of a header of the request that called it ('' if none)

two resources, for ADK's load_mcp_resource: `notes` (text) and `pixel` (a PNG), and a prompt, for
ADK's McpInstructionProvider: `shopkeeper(shop)`.

Usage: server.py [--port N]   (prints `READY http://127.0.0.1:PORT`)
"""

import sys
from pathlib import Path
from typing import Literal

import anyio
from mcp.server.mcpserver import Context, Image, MCPServer
from mcp.server.transport_security import TransportSecuritySettings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / 'a2a'))
from _serve import add_cors, bind, serve  # noqa: E402  (shared launch code)

RED_PIXEL = bytes.fromhex(
    '89504e470d0a1a0a0000000d4948445200000001000000010806000000' '1f15c4890000000d49444154789c63f8cfc0f01f0005000201c92ebb8b0000000049454e44ae426082'
)

server = MCPServer('adk-wasm-test', version='1.0.0')


@server.tool()
def add(a: int, b: int) -> int:
    """Adds two integers."""
    return a + b


@server.tool()
def describe_city(city: str, units: Literal['metric', 'imperial'] = 'metric') -> dict:
    """Describes a city's weather."""
    return {'city': city, 'temperature': 21 if units == 'metric' else 70, 'units': units, 'sky': '맑음 ☀️'}


@server.tool()
def tag_all(tags: list[str]) -> list[str]:
    """Prefixes every tag with #."""
    return [f'#{t}' for t in tags]


@server.tool()
def server_time() -> str:
    """The server's clock."""
    return '2026-11-25T12:00:00Z'


@server.tool()
def red_pixel() -> Image:
    """A red pixel."""
    return Image(data=RED_PIXEL, format='png')


@server.tool()
def fail_on_purpose() -> str:
    """Always fails."""
    raise ValueError('failed on purpose 💥')


CANCELLED: list[float] = []


@server.tool()
async def slow(seconds: float) -> str:
    """Sleeps, then answers."""
    try:
        await anyio.sleep(seconds)
    except anyio.get_cancelled_exc_class():
        CANCELLED.append(seconds)
        raise
    return f'slept {seconds}s'


@server.tool()
def cancellations() -> list[float]:
    """The slow calls cancelled so far."""
    return CANCELLED


@server.resource('resource://notes', name='notes', description='The shop notes.', mime_type='text/plain')
def notes() -> str:
    return 'Open 9 to 5. 토요일 휴무.'


@server.resource('resource://pixel', name='pixel', description='A red pixel.', mime_type='image/png')
def pixel() -> bytes:
    return RED_PIXEL


@server.prompt(name='shopkeeper', description='How to keep a shop.')
def shopkeeper(shop: str) -> list[str]:
    return [f'You keep the {shop} shop. ', 'Answer in one sentence.']


@server.tool()
def echo_header(name: str, ctx: Context) -> str:
    """The value of one header of this request."""
    return (ctx.headers or {}).get(name.lower(), '')


def main() -> None:
    sock, base_url = bind(__doc__.splitlines()[0])
    # Pages on any 127.0.0.1 port call it: DNS-rebinding protection would refuse their Origin.
    app = server.streamable_http_app(
        streamable_http_path='/mcp',
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    # The same server over HTTP+SSE, beside it in the same app (one process, one record of cancellations).
    sse = server.sse_app(transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False))
    app.router.routes.extend(sse.routes)
    add_cors(app)
    serve(app, sock, base_url)


if __name__ == '__main__':
    main()
