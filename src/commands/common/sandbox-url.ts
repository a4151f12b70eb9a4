/** Where `loanctl sandbox start` listens unless told otherwise (its --host and --port defaults). */
export const DEFAULT_SANDBOX_URL = 'http://127.0.0.1:4010';
