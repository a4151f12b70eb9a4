/**
 * A private certificate authority of the test's own, made with the `openssl` CLI in a temporary
 * directory, and the server certificates the TLS tests need: one for the right names, one for
 * another name, one that has expired (issued through `openssl ca`, the way OpenSSL 3.0 sets dates
 * in the past).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface KeyPair {
  key: string;
  cert: string;
}

export interface TestCa {
  /** The CA certificate's file (PEM), for NODE_EXTRA_CA_CERTS. */
  caFile: string;
  caPem: string;
  /** A certificate for `names` (DNS names and IP addresses), valid now. */
  issue(names: string[]): KeyPair;
  /** A certificate for `names` that expired in 2020. */
  issueExpired(names: string[]): KeyPair;
  remove(): void;
}

export function makeTestCa(): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'loanctl-ca-'));
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...ecKey,
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
    '-days',
    '30',
    '-subj',
    '/CN=loanctl test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  writeFileSync(file('index.txt'), '');
  writeFileSync(file('serial'), '1000\n');
  writeFileSync(
    file('ca.cnf'),
    [
      '[ca]',
      'default_ca = test_ca',
      '[test_ca]',
      `database = ${file('index.txt')}`,
      `new_certs_dir = ${dir}`,
      `serial = ${file('serial')}`,
      'default_md = sha256',
      'policy = any',
      'unique_subject = no',
      '[any]',
      'commonName = supplied',
    ].join('\n'),
  );
  let count = 0;

  const request = (names: string[]) => {
    const name = `leaf${++count}`;
    const alt = names.map((host) => (/^[\d.]+$|:/.test(host) ? `IP:${host}` : `DNS:${host}`)).join(',');
    writeFileSync(file(`${name}.ext`), `[v3]\nsubjectAltName = ${alt}\nextendedKeyUsage = serverAuth\n`);
    openssl('req', ...ecKey, '-keyout', file(`${name}.key`), '-out', file(`${name}.csr`), '-subj', `/CN=${names[0]}`);
    return name;
  };
  const pair = (name: string): KeyPair => ({
    key: readFileSync(file(`${name}.key`), 'utf8'),
    cert: readFileSync(file(`${name}.pem`), 'utf8'),
  });

  return {
    caFile: file('ca.pem'),
    caPem: readFileSync(file('ca.pem'), 'utf8'),
    issue(names) {
      const name = request(names);
      const signing = ['-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-set_serial', String(count)];
      openssl(
        'x509',
        '-req',
        '-in',
        file(`${name}.csr`),
        ...signing,
        '-days',
        '30',
        '-out',
        file(`${name}.pem`),
        '-extfile',
        file(`${name}.ext`),
        '-extensions',
        'v3',
      );
      return pair(name);
    },
    issueExpired(names) {
      const name = request(names);
      openssl(
        'ca',
        '-batch',
        '-notext',
        '-config',
        file('ca.cnf'),
        '-cert',
        file('ca.pem'),
        '-keyfile',
        file('ca.key'),
        '-in',
        file(`${name}.csr`),
        '-out',
        file(`${name}.pem`),
        '-startdate',
        '20200101000000Z',
        '-enddate',
        '20200201000000Z',
        '-extfile',
        file(`${name}.ext`),
        '-extensions',
        'v3',
      );
      return pair(name);
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
