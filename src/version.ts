declare const __LOANCTL_VERSION__: string | undefined;

/** Injected by the esbuild bundle; under vitest (unbundled) read from package.json's neighbour. */
export const VERSION: string = typeof __LOANCTL_VERSION__ === 'string' ? __LOANCTL_VERSION__ : '0.0.0-dev';
