import { describe, expect, it } from 'vitest';
import { InFlight } from '../../src/http/in-flight.js';

// The pool's requests not yet settled: close() fails and awaits every one of them, so losing an
// entry would leave a request running past the end of the run.
describe('InFlight', () => {
  it('keeps every entry not removed, whatever the order of removal', () => {
    const inFlight = new InFlight<string>();
    for (const entry of ['a', 'b', 'c', 'd']) inFlight.add(entry);
    inFlight.remove('b');
    expect(inFlight.all().sort()).toEqual(['a', 'c', 'd']);
    inFlight.remove('d');
    expect(inFlight.all().sort()).toEqual(['a', 'c']);
  });

  it('an entry removed twice loses no other entry', () => {
    const inFlight = new InFlight<string>();
    for (const entry of ['a', 'b', 'c']) inFlight.add(entry);
    inFlight.remove('a');
    inFlight.remove('a');
    expect(inFlight.all().sort()).toEqual(['b', 'c']);
  });
});
