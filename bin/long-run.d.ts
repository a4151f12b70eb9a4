// Types of ./long-run.js for src/binary.ts (the shim itself is plain JavaScript).
export declare function youngGenerationFlag(argv: readonly string[]): string | undefined;
export declare function sizeGiven(execArgv: readonly string[], nodeOptions: string | undefined): boolean;
/** The smallest bulk file (bytes) started on Node with the bounds above. */
export declare const LARGE_FILE_BYTES: number;
