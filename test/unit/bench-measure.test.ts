// bench/versus.mjs measures each server from outside: its CPU from /proc and the rate of slices of a
// number of requests. These hold the two measures to what they claim, against real processes and a
// real HTTP server.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: bench/ is plain JavaScript that node runs as it is (no declarations)
import { cpuSeconds } from '../../bench/lib.mjs';
// @ts-expect-error: as above
import { slice } from '../../bench/throughput.mjs';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/**
 * A process whose child spins until it has used `cpuMs` of CPU (by its own count), then idles.
 * Resolves with both pids and the CPU seconds the child counted, once it has.
 */
async function spinningGrandchild(cpuMs: number) {
  const grandchild = `const start = process.cpuUsage();
    while (process.cpuUsage(start).user < ${cpuMs * 1000});
    const used = process.cpuUsage();
    console.log(JSON.stringify({ pid: process.pid, seconds: (used.user + used.system) / 1e6 }));
    setInterval(() => {}, 60000);`;
  const parent = `const child = require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(grandchild)}], { stdio: ['ignore', 'inherit', 'inherit'] });
    process.on('SIGTERM', () => { child.kill(); process.exit(0); });
    setInterval(() => {}, 60000);`;
  const child = spawn(process.execPath, ['-e', parent], { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanups.push(() => child.kill());
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
  const counted = JSON.parse(line) as { pid: number; seconds: number };
  return { parent: child.pid as number, grandchild: counted.pid, seconds: counted.seconds };
}

describe('cpuSeconds (bench/lib.mjs)', () => {
  it("reads a process's CPU from outside, its descendants' included", async () => {
    const spun = await spinningGrandchild(300);
    const grandchild = cpuSeconds(spun.grandchild);
    // What the process counted itself, within what it used after counting (printing, idling).
    expect(grandchild).toBeGreaterThanOrEqual(spun.seconds - 0.01);
    expect(grandchild).toBeLessThan(spun.seconds + 0.5);
    // The parent's tree holds the grandchild's CPU and the parent's own.
    expect(cpuSeconds(spun.parent)).toBeGreaterThan(grandchild);
  });
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
