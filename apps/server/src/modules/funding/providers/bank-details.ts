import { createHmac, randomBytes } from 'node:crypto';

/** Crockford's base32: no I, L, O, U, so a reference read aloud or retyped survives. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const REFERENCE_PREFIX = 'BRK';

/** A new transfer reference, `BRK-7KQ4-M2XP`: 40 random bits in Crockford base32. */
export function newBankReference(): string {
  let bits = BigInt(`0x${randomBytes(5).toString('hex')}`);
  let code = '';
  for (let i = 0; i < 8; i++) {
    code = CROCKFORD[Number(bits & 31n)] + code;
    bits >>= 5n;
  }
  return `${REFERENCE_PREFIX}-${code.slice(0, 4)}-${code.slice(4)}`;
}

/**
 * The references found in a transfer's remittance text, as a bank's matching reads them: any case,
 * spaces and dashes anywhere, O read as 0 and I or L as 1; answers them in the canonical form.
 */
export function referencesIn(remittance: string): string[] {
  const text = remittance
    .toUpperCase()
    .replace(/[^0-9A-Z]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
  return [...text.matchAll(/BRK([0-9A-HJKMNP-TV-Z]{8})/g)].map(
    (m) => `${REFERENCE_PREFIX}-${m[1]?.slice(0, 4)}-${m[1]?.slice(4)}`,
  );
}

function mod97(digits: string): number {
  let rest = 0;
  for (const char of digits) rest = (rest * 10 + Number(char)) % 97;
  return rest;
}

const lettersAsDigits = (text: string) => text.replace(/[A-Z]/g, (char) => String(char.charCodeAt(0) - 55));

/** An IBAN without spaces, upper case. */
export const compactIban = (iban: string) => iban.replace(/\s+/g, '').toUpperCase();

/** The ISO 13616 check (mod 97 = 1) of an IBAN, spaces allowed. */
export function ibanValid(iban: string): boolean {
  const compact = compactIban(iban);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(compact)) return false;
  return mod97(lettersAsDigits(compact.slice(4) + compact.slice(0, 4))) === 1;
}

/** An IBAN of a country and a domestic account number (BBAN), with its check digits. */
export function makeIban(country: string, bban: string): string {
  const check = 98 - mod97(lettersAsDigits(`${bban}${country}00`));
  return `${country}${String(check).padStart(2, '0')}${bban}`;
}

/** IBAN in groups of four, as printed. */
export const printIban = (iban: string) => compactIban(iban).replace(/(.{4})(?=.)/g, '$1 ');

/** The sandbox bank's sort code and BIC (not a real bank's). */
const SANDBOX_BANK_CODE = '99990000';
export const SANDBOX_BIC = 'SBXBDEFFXXX';
export const SANDBOX_BANK_NAME = 'Sandbox Bank AG';

/** The broker's collection account at the sandbox bank: one per broker, a valid German IBAN. */
export function collectionIban(secret: string, tenantId: string): string {
  const digest = createHmac('sha256', secret).update(`sandbox-bank-account:${tenantId}`).digest();
  const account = (digest.readBigUInt64BE(0) % 10_000_000_000n).toString().padStart(10, '0');
  return makeIban('DE', `${SANDBOX_BANK_CODE}${account}`);
}
