/** `GET /openapi.json`: the API's OpenAPI document (./openapi.ts), served without an API key. */
import type { FastifyInstance } from 'fastify';
import { VERSION } from '../version.js';
import { OPENAPI_PATH, openApiDocument } from './openapi.js';

/** Server URLs whose document is kept: the names a request may reach the sandbox by are few (hosts.ts). */
const URLS_KEPT = 16;

export function serveOpenApi(app: FastifyInstance): void {
  // Built on the first request (it converts every schema of the contract), then written out once
  // per server URL: every reply of that URL is the same bytes, shared by the replies node holds
  // for a slow reader, not a copy each (the document is about 300 KB).
  let document: Record<string, unknown> | undefined;
  const written = new Map<string, Buffer>();
  app.get(OPENAPI_PATH, (request, reply) => {
    // The address the caller reached this sandbox at, so Prism or a generated client can use it as is.
    const serverUrl = `${request.protocol}://${request.host}`;
    let bytes = written.get(serverUrl);
    if (bytes === undefined) {
      document ??= openApiDocument({ serverUrl, version: VERSION });
      bytes = Buffer.from(JSON.stringify({ ...document, servers: [{ url: serverUrl }] }));
      if (written.size >= URLS_KEPT) written.delete(written.keys().next().value as string);
      written.set(serverUrl, bytes);
    }
    reply.type('application/json; charset=utf-8').send(bytes);
  });
}
