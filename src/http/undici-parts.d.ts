// Types for the undici files src/http/undici.ts imports directly (the package types its index only).
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';

  const AgentImpl: typeof Agent;
  export default AgentImpl;
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';

  function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  export default request;
}

declare module 'undici/lib/core/util.js' {
  const util: { parseURL(url: URL): URL };
  export default util;
}
