/** `--data`, as the verbs that take a request body (loan and user create, the add-* verbs) declare it. */
import type { Deps } from '../../deps.js';
import { readDataObject } from './data.js';

export interface DataOption {
  /** `--data`: JSON, `@file.json` or `-`. */
  data?: string | undefined;
}

/** The object of `--data`, or undefined without it. */
export function readData(options: DataOption, deps: Deps): Promise<Record<string, unknown> | undefined> {
  return readDataObject(options.data, deps);
}
