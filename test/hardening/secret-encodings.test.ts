/**
 * The API key is never shown in any encoding a server may echo it
 * in. A scripted server on 127.0.0.1 reads the key from each request's Authorization header and
 * echoes it back — in messages, values and property names, in success and error replies — as JSON
 * escapes (`\u0073k_…`, `\/`), URL-encoded, as HTML references, and in base64 and base64url of
 * the key, of `Bearer <key>` and of `user:<key>` — and URL-encoded then JSON-escaped, which only
 * the redaction of the parsed strings finds (`--raw` then prints the redacted JSON). The program's stdout and stderr (in-process), in every
 * output format, `--raw`, `--debug` and `loanctl api`, are grepped for each form and for every
 * 7-character piece of the key's secret part.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ScriptedServer, scriptedServer } from '../helpers/scripted-server.js';
import { cleanEnv, cliInProcess as cli, removeTemps } from './helpers.js';

/** A key with the characters JSON and URLs escape (`/`, `+`, `=`), as long as a real one. */
const KEY = 'sk_live_ENC/CANARY+7c1d9e4b2a=Zq5W';

const hex = (c: string, width: number) => c.charCodeAt(0).toString(16).padStart(width, '0');
const b64 = (text: string) => Buffer.from(text).toString('base64');

/** The echoes, as they appear in the raw reply text (so JSON escapes are written out). */
function echoes(key: string): Record<string, string> {
  return {
    plain: key,
    jsonEveryCharacter: [...key].map((c) => `\\u${hex(c, 4)}`).join(''),
    jsonFirstCharacter: `\\u${hex(key[0] ?? '', 4).toUpperCase()}${key.slice(1)}`,
    jsonSlash: key.replaceAll('/', '\\/'),
    url: encodeURIComponent(key),
    // Only parsing finds this one: `\u0025` is `%`, so the string holds the URL-encoded key.
    urlJsonEscaped: encodeURIComponent(key).replaceAll('%', '\\u0025'),
    urlEveryCharacter: [...key].map((c) => `%${hex(c, 2).toUpperCase()}`).join(''),
    html: [...key].map((c) => `&#x${hex(c, 2)};`).join(''),
    base64Key: b64(key),
    base64Bearer: b64(`Bearer ${key}`),
    base64BearerJsonEscaped: b64(`Bearer ${key}`).replaceAll('/', '\\/'),
    base64Basic: b64(`api:${key}`),
    base64urlBearer: Buffer.from(`Bearer ${key}`).toString('base64url'),
  };
}

/** A raw JSON text with every echo in the message, in values and in property names. */
function echoReply(req: IncomingMessage, status: 'success' | 'error'): string {
  const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
  const forms = Object.entries(echoes(key));
  const message = forms.map(([name, form]) => `${name}=${form}`).join(' ');
  const rows = forms.map(
    ([name, form], index) =>
      `{"id":${index + 1},"email":"${form}","firstname":"${name}","lastname":"x","note_${form}":"${form}"}`,
  );
  return `{"status":"${status}","message":"invalid request ${message}","data":[${rows.join(',')}]}`;
}

let env: Record<string, string>;
let server: ScriptedServer;

beforeAll(async () => {
  server = await scriptedServer();
  server.script((req, res: ServerResponse) => {
    const wants = new URL(req.url ?? '/', 'http://x').searchParams;
    const send = (code: number, text: string) =>
      res.writeHead(code, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
    if (wants.get('pages') === '2') return send(200, '{"status":"success","message":"ok","data":[]}');
    if (req.url?.includes('/reject')) return send(401, echoReply(req, 'error'));
    if (req.method !== 'GET') return send(500, echoReply(req, 'error'));
    send(200, echoReply(req, 'success'));
  });
  env = cleanEnv({ LOANCTL_API_KEY: KEY, LOANCTL_PRODUCT_ID: '12', LOANCTL_BASE_URL: server.url });
});
afterAll(async () => {
  await server?.close();
  removeTemps();
});

/** Every form of the key, as sent and as decoded, and every 7-character piece of its secret part. */
function needles(): string[] {
  const secret = KEY.slice('sk_live_'.length);
  const pieces: string[] = [];
  for (let i = 0; i + 7 <= secret.length; i++) pieces.push(secret.slice(i, i + 7));
  const forms = Object.values(echoes(KEY));
  // Long runs of each base64 form (what the key's redaction leaves of one is a few edge characters).
  const runs = forms.flatMap((form) => (form.length > 24 ? [form.slice(4, 20), form.slice(-20, -4)] : []));
  return [...new Set([KEY, ...forms, ...runs, ...pieces])];
}

const COMMANDS: [string, string[]][] = [
  ['user list -o json', ['user', 'list', '-o', 'json']],
  ['user list -o ndjson', ['user', 'list', '-o', 'ndjson']],
  ['user list -o csv', ['user', 'list', '-o', 'csv']],
  ['user list -o table', ['user', 'list', '-o', 'table']],
  ['user list --raw', ['user', 'list', '--raw']],
  ['user list --debug', ['user', 'list', '--debug', '-o', 'json']],
  ['api GET /user', ['api', 'GET', '/user']],
  ['a 401 with --raw --debug', ['api', 'GET', '/reject', '--raw', '--debug']],
  ['a 500 to a write, --raw', ['loan', 'submit', '7', '--raw']],
  ['a 500 to a write, --debug', ['loan', 'submit', '7', '--debug']],
  ['api POST answered 500', ['api', 'POST', '/loan_request/7/submit', '--data', '{}']],
];

describe.concurrent('a server that echoes the key in every encoding', () => {
  it.each(COMMANDS)('%s: no form of the key in stdout or stderr', async (_name, args) => {
    const result = await cli(args, env);
    const text = `${result.stdout}\n${result.stderr}`;
    // The reply was printed (or its error line), with the echoes hidden.
    expect(text).toContain('***');
    expect(needles().filter((needle) => text.includes(needle))).toEqual([]);
  });
});
