import { describe, expect, it } from 'vitest';
import { bodySchema } from '../../src/contract/field-schemas.js';

const ApprovalTerms = bodySchema('approveLoanRequest');
const LoanRequestCreate = bodySchema('createLoanRequest');
const UserCreateRequest = bodySchema('createUser');

import { normalisePhone } from '../../src/contract/vocabulary.js';
import { ExitCode, UsageError } from '../../src/errors.js';
import { buildBody } from '../../src/input/body.js';
import {
  parseAmount,
  parseBoolean,
  parseDate,
  parseDirection,
  parseEmail,
  parseFrequency,
  parseId,
  parseNonNegativeNumber,
  parsePhone,
  parsePositiveInt,
  parseRateType,
  parseTenuredIn,
  parseUserRef,
  parseWholeNumber,
} from '../../src/input/values.js';

/** Runs fn, expects a UsageError (exit 2), and returns its one line. */
function usageLine(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    const usage = error as UsageError;
    expect(usage.exitCode).toBe(ExitCode.usage);
    const line = usage.hint ? `${usage.message} ${usage.hint}` : usage.message;
    expect(line).not.toContain('\n');
    return line;
  }
  throw new Error('expected a UsageError');
}

describe('phone numbers', () => {
  it.each([
    ['+2348012345678', '+2348012345678'],
    ['2348012345678', '+2348012345678'],
    ['08012345678', '+2348012345678'],
    ['0801 234 5678', '+2348012345678'],
    ['+234 (801) 234-5678', '+2348012345678'],
  ])('accepts %s and sends %s', (raw, sent) => {
    expect(parsePhone(raw, '--phone')).toBe(sent);
  });

  it.each(['8012345678', '0801234567', '080123456789', '+23480123456789', '+4478012345678', 'phone', ''])(
    'rejects %j naming the flag',
    (raw) => {
      const line = usageLine(() => parsePhone(raw, '--phone'));
      expect(line).toMatch(/^--phone must be a Nigerian phone number/);
      expect(line).toContain('08012345678');
    },
  );

  it('normalisePhone says undefined for what it cannot read', () => {
    expect(normalisePhone('12345')).toBeUndefined();
  });
});

describe('e-mail', () => {
  it('trims and accepts an address', () => {
    expect(parseEmail(' ada@example.com ', '--email')).toBe('ada@example.com');
  });
  it.each(['ada', 'ada@', '@example.com', 'ada@example', 'a da@example.com'])('rejects %j', (raw) => {
    expect(usageLine(() => parseEmail(raw, '--email'))).toMatch(/^--email must be an e-mail address/);
  });
});

describe('amounts', () => {
  it.each([
    ['50000', 50000],
    ['50,000', 50000],
    ['1_000_000', 1000000],
    ['1250.50', 1250.5],
    [' 7 ', 7],
  ])('reads %j as %d', (raw, value) => {
    expect(parseAmount(raw, '--amount')).toBe(value);
  });

  it.each([
    ['abc', /positive amount/],
    ['-5', /positive amount/],
    ['0', /more than 0/],
    ['0.00', /more than 0/],
    ['1e400', /positive amount/],
    ['1e3', /positive amount/],
    ['Infinity', /positive amount/],
    ['5,0', /positive amount/],
    ['', /positive amount/],
    ['9'.repeat(400), /too large/],
    ['1000000000000.01', /too large: the most is 1000000000000/],
    ['0.001', /must be at least 0.01/],
    ['1250.505', /at most two decimals/],
    ['5e-324', /positive amount/],
  ])('rejects %j', (raw, problem) => {
    const line = usageLine(() => parseAmount(raw, '--amount'));
    expect(line).toMatch(/^--amount /);
    expect(line).toMatch(problem);
  });

  it('reads the edges of the money range: 0.01 and 1,000,000,000,000', () => {
    expect(parseAmount('0.01', '--amount')).toBe(0.01);
    expect(parseAmount('1,000,000,000,000', '--amount')).toBe(1e12);
  });

  it.each([1e308, 5e-324, 0.001])('a money field of --data holding %d is refused before sending', (amount) => {
    const line = usageLine(() =>
      buildBody(
        LoanRequestCreate,
        [
          { key: 'amount', flag: '--amount', value: undefined, parse: parseAmount },
          { key: 'purpose', flag: '--purpose', value: 'Stock' },
        ],
        { amount },
      ),
    );
    expect(line).toContain('amount must be an amount from 0.01 to 1000000000000 with at most two decimals');
  });

  it('a rate may be 0 but not negative', () => {
    expect(parseNonNegativeNumber('0', '--rate')).toBe(0);
    expect(parseNonNegativeNumber('12.5', '--rate')).toBe(12.5);
    expect(usageLine(() => parseNonNegativeNumber('-1', '--rate'))).toMatch(/^--rate /);
  });
});

describe('whole numbers and ids', () => {
  it('reads whole numbers', () => {
    expect(parseWholeNumber('0', '--grace-period')).toBe(0);
    expect(parseWholeNumber('250,000', '--salary')).toBe(250000);
    expect(parsePositiveInt('12', '--tenure')).toBe(12);
  });
  it.each(['1.5', '-1', 'x', '1e3'])('rejects %j where a whole number is wanted', (raw) => {
    expect(usageLine(() => parseWholeNumber(raw, '--salary'))).toMatch(/^--salary must be a whole number/);
  });
  it('rejects 0 where at least 1 is wanted', () => {
    expect(usageLine(() => parsePositiveInt('0', '--tenure'))).toMatch(/^--tenure must be at least 1/);
  });
  it('reads ids and rejects what is not one', () => {
    expect(parseId('172', 'ID')).toBe(172);
    for (const raw of ['0', 'abc', '-3', '1.0', '99999999999999999999']) {
      expect(usageLine(() => parseId(raw, 'ID'))).toMatch(/^ID must be an id/);
    }
  });
});

describe('dates', () => {
  it('accepts a real yyyy-mm-dd date', () => {
    expect(parseDate('2024-02-29', '--start')).toBe('2024-02-29');
  });
  it.each(['2023-02-29', '2024-13-01', '2024-1-5', '05/01/2024', 'today'])('rejects %j', (raw) => {
    expect(usageLine(() => parseDate(raw, '--start'))).toMatch(/^--start must be a real date written yyyy-mm-dd/);
  });
});

describe('enums', () => {
  it('accepts weekly and sends the API spelling weekely', () => {
    expect(parseFrequency('weekly', '--frequency')).toBe('weekely');
    expect(parseFrequency('weekely', '--frequency')).toBe('weekely');
    expect(parseFrequency('Monthly', '--frequency')).toBe('monthly');
    expect(parseFrequency('bi-weekly', '--frequency')).toBe('bi-weekly');
  });
  it('lists the allowed values when the value is wrong', () => {
    const line = usageLine(() => parseFrequency('yearly', '--frequency'));
    expect(line).toBe('--frequency must be one of daily, weekly, bi-weekly, monthly (got "yearly").');
    expect(usageLine(() => parseTenuredIn('years', '--tenured-in'))).toBe(
      '--tenured-in must be one of months, days, weeks (got "years").',
    );
    expect(usageLine(() => parseRateType('flat', '--rate-type'))).toBe(
      '--rate-type must be one of simple-interest, compound-interest, fixed-amount (got "flat").',
    );
  });
  it('accepts the singular of a tenure unit and short rate types', () => {
    expect(parseTenuredIn('month', '--tenured-in')).toBe('months');
    expect(parseRateType('simple', '--rate-type')).toBe('simple-interest');
  });
  it('reads directions in any case', () => {
    expect(parseDirection('desc', '--direction')).toBe('DESC');
    expect(usageLine(() => parseDirection('up', '--direction'))).toMatch(/ASC or DESC/);
  });
  it('reads yes/no', () => {
    expect(parseBoolean('yes', '--registered')).toBe(true);
    expect(parseBoolean('false', '--registered')).toBe(false);
    expect(usageLine(() => parseBoolean('maybe', '--registered'))).toMatch(/yes or no/);
  });
});

describe('user references', () => {
  it('reads an id or an e-mail', () => {
    expect(parseUserRef('12', '--user')).toEqual({ kind: 'id', id: 12 });
    expect(parseUserRef('ada@example.com', '--user')).toEqual({ kind: 'email', email: 'ada@example.com' });
    expect(usageLine(() => parseUserRef('ada', '--user'))).toMatch(/^--user must be a user id or the e-mail/);
  });
});

describe('buildBody', () => {
  const userFields = (values: Record<string, string | undefined>) => [
    { key: 'firstname', flag: '--firstname', value: values.firstname },
    { key: 'lastname', flag: '--lastname', value: values.lastname },
    { key: 'email', flag: '--email', value: values.email, parse: parseEmail },
    { key: 'password', flag: '--password-stdin', value: values.password },
    { key: 'phone', flag: '--phone', value: values.phone, parse: parsePhone },
    { key: 'gender', flag: '--gender', value: values.gender },
  ];

  it('lets flags override --data and normalises --data values', () => {
    const { body, ignored } = buildBody(UserCreateRequest, userFields({ firstname: 'Ada', password: 'secret' }), {
      firstname: 'Grace',
      lastname: 'Lovelace',
      email: 'ada@example.com',
      phone: '08012345678',
      gender: 'female',
      x: 1,
    });
    expect(body).toEqual({
      firstname: 'Ada',
      lastname: 'Lovelace',
      email: 'ada@example.com',
      password: 'secret',
      phone: '+2348012345678',
      gender: 'female',
    });
    expect(ignored).toEqual(['x']);
  });

  it('names the flag of a missing field', () => {
    const line = usageLine(() =>
      buildBody(
        UserCreateRequest,
        userFields({ firstname: 'Ada', lastname: 'L', email: 'a@b.co', password: 'p', phone: '08012345678' }),
      ),
    );
    expect(line).toBe('Missing --gender. Pass them as flags, or as fields of --data.');
  });

  it('names the --data field that is wrong', () => {
    const line = usageLine(() =>
      buildBody(
        LoanRequestCreate,
        [
          { key: 'amount', flag: '--amount', value: undefined, parse: parseAmount },
          { key: 'purpose', flag: '--purpose', value: 'Stock' },
        ],
        {
          amount: 'lots',
        },
      ),
    );
    expect(line).toBe('field "amount" of --data must be a positive amount written with digits (got "lots").');
  });

  it('says "is required" for a missing enum next to another problem', () => {
    const line = usageLine(() =>
      buildBody(ApprovalTerms, [
        { key: 'approved_amount', flag: '--approved-amount', value: '100', parse: parseAmount },
        { key: 'rate', flag: '--rate', value: '5' },
        { key: 'tenure', flag: '--tenure', value: undefined },
        { key: 'tenured_in', flag: '--tenured-in', value: undefined },
        { key: 'rate_type', flag: '--rate-type', value: undefined },
        { key: 'frequency', flag: '--frequency', value: undefined },
      ]),
    );
    expect(line).toContain('tenured_in is required');
    expect(line).toContain('rate Invalid input: expected number, received string');
    expect(line).toContain('--tenured-in');
  });

  it('checks numbers given as JSON numbers with the schema', () => {
    const line = usageLine(() =>
      buildBody(
        LoanRequestCreate,
        [
          { key: 'amount', flag: '--amount', value: undefined, parse: parseAmount },
          { key: 'purpose', flag: '--purpose', value: 'Stock' },
        ],
        {
          amount: -5,
        },
      ),
    );
    expect(line).toContain('amount must be an amount from 0.01 to 1000000000000 with at most two decimals');
    expect(line).toContain('--amount');
  });
});
