// bench/versus.mjs measures each server from outside: its CPU from /proc and the rate of slices of a
// number of requests. These hold the two measures to what they claim, against real processes and a
// real HTTP server.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: bench/ is plain JavaScript that node runs as it is (no declarations)
import { slice } from '../../bench/throughput.mjs';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('slice (bench/throughput.mjs)', () => {
  it('ends a slice of a number of requests when its last reply arrives, not at the end of its time', async () => {
    const server = createServer((_request, response) => response.end('{}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => server.close());
    const { port } = server.address() as AddressInfo;
    // 16 tiny requests take milliseconds; the 5 s are only the bound of a slice of time.
    const result = await slice('tiny', { url: `http://127.0.0.1:${port}/`, amount: 16 }, 4, 5);
    expect(result.requests).toBe(16);
    expect(result.seconds).toBeLessThan(2.5);
    expect(result.rps).toBeCloseTo(16 / result.seconds, 5);
  });
});
