// Types of ./long-run.js for src/binary.ts (the shim itself is plain JavaScript).
export declare const BOUNDED_YOUNG_GENERATION: string;
export declare function isLongRun(argv: readonly string[]): boolean;
export declare function sizeGiven(execArgv: readonly string[], nodeOptions: string | undefined): boolean;
