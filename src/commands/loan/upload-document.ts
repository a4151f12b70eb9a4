/**
 * `loanctl loan upload-document ID --type --title --number --url` (spec 4.9). The API takes the
 * document's location, not the file: `--url` is sent as `document_url`.
 */
import { DocumentRequest } from '../../contract/schemas.js';
import type { Deps } from '../../deps.js';
import { parseText } from '../../input/values.js';
import { runAttach } from './attach.js';
import type { DataOption, LoanIdOptions } from './common.js';

export interface LoanUploadDocumentOptions extends LoanIdOptions, DataOption {
  type?: string;
  title?: string;
  number?: string;
  url?: string;
}

export async function runLoanUploadDocument(options: LoanUploadDocumentOptions, deps: Deps): Promise<void> {
  await runAttach(options, deps, {
    endpoint: 'uploadDocument',
    schema: DocumentRequest,
    what: 'a document',
    kind: 'document',
    fields: [
      { key: 'type', flag: '--type', value: options.type, parse: parseText },
      { key: 'title', flag: '--title', value: options.title, parse: parseText },
      { key: 'number', flag: '--number', value: options.number, parse: parseText },
      { key: 'document_url', flag: '--url', value: options.url, parse: parseText },
    ],
  });
}
