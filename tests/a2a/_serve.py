"""Launch code shared by the Python test peers (A2A, MCP): a 127.0.0.1 socket, CORS, and one READY line."""

import argparse
import asyncio
import socket

import uvicorn
from starlette.applications import Starlette
from starlette.middleware.cors import CORSMiddleware

HOST = '127.0.0.1'

# Browser tests read these from cross-origin responses; '*' alone does not cover credentialed calls.
EXPOSED_HEADERS = ['*', 'A2A-Version', 'A2A-Extensions', 'Content-Type', 'ETag', 'Cache-Control', 'Mcp-Session-Id']


def bind(description: str) -> tuple[socket.socket, str]:
    """Parses --port and binds it before the app exists, so the card can carry the real port."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument('--port', type=int, default=0, help='TCP port on 127.0.0.1; 0 picks a free one')
    port = parser.parse_args().port
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((HOST, port))
    return sock, f'http://{HOST}:{sock.getsockname()[1]}'


def add_cors(app: Starlette) -> None:
    # allow_headers='*' makes Starlette echo the requested headers, which (unlike a literal '*')
    # also admits Authorization in a preflight.
    app.add_middleware(
        CORSMiddleware,
        allow_origins=['*'],
        allow_methods=['*'],
        allow_headers=['*'],
        expose_headers=EXPOSED_HEADERS,
        max_age=600,
    )


def serve(app: Starlette, sock: socket.socket, base_url: str) -> None:
    """Serves until SIGINT/SIGTERM; prints `READY <base_url>` once requests are accepted."""
    # Open SSE streams would otherwise hold a graceful shutdown forever.
    server = uvicorn.Server(uvicorn.Config(app, log_level='warning', timeout_graceful_shutdown=1))

    async def main() -> None:
        serving = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started and not serving.done():
            await asyncio.sleep(0.01)
        if server.started:
            print(f'READY {base_url}', flush=True)
        await serving

    asyncio.run(main())
