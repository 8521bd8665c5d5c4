// `POST /ag-ui/validate` on the test pages' server: the page posts the AG-UI events one run produced
// (a JSON array) and gets back what AG-UI's own conformance validator (`ag-ui-validate`, PyPI) says
// of them: `{ ok, report }`, `ok` when no diagnostic is an error.
import { spawn } from 'node:child_process';
import { installVenv } from '../common/processes.mjs';

const ROOT = new URL('../..', import.meta.url).pathname;

/** Installs the validator's venv (once per process). */
export const installValidator = () =>
  installVenv('agui', 'tests/ag_ui/requirements.txt', 'import google.adk, ag_ui_adk, ag_ui_validate, ag_ui.core');

function validate(body) {
  return new Promise((resolve, reject) => {
    const child = spawn(`${ROOT}.venv/agui/bin/python`, [`${ROOT}tests/ag_ui/validate.py`, '-'], { cwd: ROOT });
    let report = '';
    child.stdout.on('data', (chunk) => (report += chunk));
    child.stderr.on('data', (chunk) => (report += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 || code === 1 ? resolve({ ok: code === 0, report }) : reject(new Error(`validate.py exited ${code}: ${report}`))));
    child.stdin.end(body);
  });
}

/** A handler for scripts/serve.mjs. */
export async function agUiValidator(req, res) {
  if (req.method !== 'POST' || new URL(req.url, 'http://x').pathname !== '/ag-ui/validate') return false;
  let body = '';
  for await (const chunk of req) body += chunk;
  const answer = await validate(body);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(answer));
  return true;
}
