/** `GET /openapi.json`: the API's OpenAPI document (./openapi.ts), served without an API key. */
import type { FastifyInstance } from 'fastify';
import { VERSION } from '../version.js';
import { OPENAPI_PATH, openApiDocument } from './openapi.js';

export function serveOpenApi(app: FastifyInstance): void {
  // Built on the first request (it converts every schema of the contract), then only its server changes.
  let document: Record<string, unknown> | undefined;
  app.get(OPENAPI_PATH, (request, reply) => {
    // The address the caller reached this sandbox at, so Prism or a generated client can use it as is.
    const serverUrl = `${request.protocol}://${request.host}`;
    document ??= openApiDocument({ serverUrl, version: VERSION });
    reply.type('application/json; charset=utf-8').send({ ...document, servers: [{ url: serverUrl }] });
  });
}
