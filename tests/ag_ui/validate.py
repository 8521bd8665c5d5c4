"""Runs the ag-ui-validate conformance validator (its library API, as the CLI does) over AG-UI events.

    .venv/agui/bin/python tests/ag_ui/validate.py EVENTS.json [--features a,b] [--off AGUI###]...
    ... | .venv/agui/bin/python tests/ag_ui/validate.py -
    .venv/agui/bin/python tests/ag_ui/validate.py --golden [GOLDEN.json]   # every run of a record.py file

EVENTS.json (or stdin) is a JSON array of AG-UI events in their camelCase wire form. The events are
framed as the SSE body a server sends (`data: <json>\\n\\n` each) and fed to
`ag_ui_validate.transport.validate_body` as a recording (`recorded=True`, so the timing and
disconnect rules are reported as skipped). Every diagnostic is printed, then a one-line summary.
Exit 0 when no diagnostic has error severity, 1 otherwise (2 on bad usage).

The same check with the package's own CLI: write the SSE body to a file and run
`.venv/agui/bin/ag-ui-validate FILE` (or `-` for stdin).
"""

import argparse
import asyncio
import json
import sys
from pathlib import Path

from ag_ui_validate.report import format_diagnostic_line
from ag_ui_validate.transport import TransportOptions, validate_body
from ag_ui_validate.types import ValidatorOptions

DEFAULT_GOLDEN = Path(__file__).resolve().parent.parent / 'fixtures' / 'ag-ui' / 'ag-ui-adk-0.11.0.json'


def sse_body(events: list) -> bytes:
    return ''.join(f'data: {json.dumps(e, ensure_ascii=False, separators=(",", ":"))}\n\n' for e in events).encode()


async def validate(events: list, features=None, off=()):
    async def chunks():
        yield sse_body(events)

    opts = TransportOptions(
        validator=ValidatorOptions(features=features, severity_overrides={r: 'off' for r in off} or None),
        recorded=True,
    )
    return (await validate_body(chunks(), 'text/event-stream', opts)).report


def summary_line(label: str, report) -> str:
    s = report.summary
    rules = sorted({d.rule for d in report.diagnostics})
    extra = f" internal errors: {report.internal_errors}" if report.internal_errors else ''
    return (f'{label}: {report.event_count} events, {s.errors} errors, {s.warnings} warnings, {s.info} info'
            + (f" ({', '.join(rules)})" if rules else '') + extra)


def print_report(label: str, report) -> bool:
    for d in report.diagnostics:
        print(f'  {format_diagnostic_line(d, False)}'.replace('\n', '\n  '))
    print(summary_line(label, report))
    return report.summary.errors == 0 and not report.internal_errors


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('source', nargs='?', default='-', help='JSON array of events, or - for stdin')
    ap.add_argument('--golden', action='store_true', help='SOURCE is a record.py file: validate each run')
    ap.add_argument('--features', help='comma-separated features (enables feature-conditional rules)')
    ap.add_argument('--off', action='append', default=[], metavar='AGUI###', help='turn a rule off')
    args = ap.parse_args()
    features = args.features.split(',') if args.features else None

    if args.golden:
        path = Path(DEFAULT_GOLDEN if args.source == '-' else args.source)
        doc = json.loads(path.read_text(encoding='utf-8'))
        ok = True
        for scenario in doc['scenarios']:
            for i, run in enumerate(scenario['runs']):
                report = asyncio.run(validate(run['events'], features, args.off))
                ok = print_report(f"{scenario['name']} run {i + 1}", report) and ok
        print('OK: no errors' if ok else 'FAIL: errors found')
        return 0 if ok else 1

    text = sys.stdin.read() if args.source == '-' else Path(args.source).read_text(encoding='utf-8')
    events = json.loads(text)
    if not isinstance(events, list):
        print('error: expected a JSON array of AG-UI events', file=sys.stderr)
        return 2
    report = asyncio.run(validate(events, features, args.off))
    return 0 if print_report(args.source if args.source != '-' else 'stdin', report) else 1


if __name__ == '__main__':
    sys.exit(main())
